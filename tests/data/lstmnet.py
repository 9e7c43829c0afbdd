"""A 2-layer LSTM classifier for tests/tight.sh (remat-export --module
lstmnet:Net --input-shape 8,50,64 --num-classes 10): PyTorch's LSTM on the
CPU makes each layer's input projection one tensor that every step reads,
and stacks the steps' gate gradients into one."""
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(64, 128, num_layers=2, batch_first=True)
        self.fc = nn.Linear(128, 10)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.fc(y[:, -1])
