Optimal - objective value 17
      0 R_99_0   1   0
