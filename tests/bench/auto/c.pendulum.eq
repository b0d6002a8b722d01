# Equilibria of the figure-5a pendulum in omega0 from 30 rad/s (N = 25 N):
# the lower equilibrium (STPNT), its Hopf point (HB1, 37.17 rad/s).
# With PENDULUM_START=upper in the environment the upper equilibrium and its
# Hopf point (35.97 rad/s), where the cycles of c.pendulum.po end.
unames = {1: 'XC', 2: 'YC', 3: 'phi', 4: 'dXC', 5: 'dYC', 6: 'dphi'}
parnames = {1: 'omega0', 2: 'N', 11: 'period'}
NDIM=   6, IPS =   1, IRS =   0, ILP =   1
ICP =  [1]
NTST=  50, NCOL=   4, IAD =   3, ISP =   2, ISW = 1, IPLT= 0, NBC= 0, NINT= 0
NMX= 1000, NPR= 1000, MXBF=  10, IID =   2, ITMX= 8, ITNW= 10, NWTN= 3, JAC= 1
EPSL= 1e-10, EPSU = 1e-10, EPSS = 1e-8
DS  =   0.1, DSMIN=  1e-6, DSMAX=   1.0, IADS=   1
THL =  {11: 0.0}, THU =  {}
UZSTOP = {1: [20, 80]}
