c Problem:    
c Rows:       810
c Columns:    614
c Non-zeros:  2735
c Status:     INTEGER EMPTY
c Objective:  R0000000 = 0 (MINimum)
c
s mip 810 614 n 0
e o f
