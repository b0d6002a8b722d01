!---------------------------------------------------------------------------
! SPDX-License-Identifier: MIT
! AUTO-07p equation file: the pendulum on a rotating disk of Kudra &
! Awrejcewicz (Acta Mech. 2016, eqs. 7-9), with the regularized I(1,1)
! friction law (eq. 6, eta = 1 so eta' = 0) of params/pendulum_fig5a.ini:
! the same smooth model that `contensou continue` uses for figure 5a
! (src/models/pendulum.c, src/friction/approx.c), with its analytic Jacobian
! (AUTO's finite differences are too noisy at EPSL = EPSU = 1e-10).
!
! U = (XC, YC, phi, XC', YC', phi')   [m, m, rad, m/s, m/s, rad/s]
! PAR(1) = omega0 [rad/s], PAR(2) = N [N], PAR(11) = period [s].
! The other parameters are those of params/pendulum_fig5a.ini (below).
!---------------------------------------------------------------------------

MODULE pendulum_model
  IMPLICIT NONE
  DOUBLE PRECISION, PARAMETER :: PM = 1.2d0, PB = 0.01d0, PE = 0.1d0
  DOUBLE PRECISION, PARAMETER :: KX = 1000d0, KY = 1000d0, CX = 0.1d0, CY = 0.1d0
  DOUBLE PRECISION, PARAMETER :: CPHI = 0.1d0, XS = 0d0, YS = 0d0, RR = 0.02d0
  DOUBLE PRECISION, PARAMETER :: MU = 1d0, GG = 9.81d0, EPS = 1d-3
  ! the fitted I(1,1) pair (src/friction/defaults.h)
  DOUBLE PRECISION, PARAMETER :: BL = 0.451960d0, ML = 0.764818d0
CONTAINS

  ! The regularized I(1,1) load T = (Tsx, Tsy, Ms) at z = (vsx, vsy, ws) and
  ! its Jacobian JF(i,j) = dT_i/dz_j (src/friction/approx.c, unscaled: the
  ! velocities here are far from overflow).
  SUBROUTINE I11REG(Z, T, JF)
    DOUBLE PRECISION, INTENT(IN) :: Z(3)
    DOUBLE PRECISION, INTENT(OUT) :: T(3), JF(3,3)
    DOUBLE PRECISION s2, aw, A, B, big, small, q, r, Q2, GQ(3), fb, fs, fv, fw, tv
    DOUBLE PRECISION e6, qq, L, DL, w2, NT, NN(3), DN(3,3)
    INTEGER i, j
    s2 = Z(1)**2 + Z(2)**2
    aw = ABS(Z(3))
    A = s2*SQRT(s2)
    B = BL*aw**3
    big = MAX(A, B)
    small = MIN(A, B)
    GQ = 0d0
    Q2 = 0d0
    IF (big > 0d0) THEN
      q = small/big
      r = 0d0
      IF (small > 0d0) r = EXP(ML*LOG(q))
      Q2 = big*big*EXP(2d0/ML*LOG(1d0 + r))
      fb = 1d0/(1d0 + r)
      fs = r*fb
      IF (A > B) THEN
        fv = fb
        fw = fs
      ELSE
        fv = fs
        fw = fb
      ENDIF
      tv = 0d0
      IF (s2 > 0d0) tv = 6d0*Q2*fv/s2
      GQ(1) = tv*Z(1)
      GQ(2) = tv*Z(2)
      IF (aw > 0d0) GQ(3) = 6d0*Q2*fw/aw*SIGN(1d0, Z(3))
    ENDIF
    e6 = EPS**6
    qq = Q2 + e6
    L = 1d0/SQRT(qq)
    DL = -0.5d0*L/qq
    w2 = Z(3)**2
    NT = s2 + BL*w2
    NN(1) = NT*Z(1)
    NN(2) = NT*Z(2)
    NN(3) = (2d0/3d0)*BL*w2*Z(3) + 0.25d0*Z(3)*s2
    T = NN*L
    DN(1,:) = (/ NT + 2d0*Z(1)**2, 2d0*Z(1)*Z(2), 2d0*BL*Z(3)*Z(1) /)
    DN(2,:) = (/ 2d0*Z(1)*Z(2), NT + 2d0*Z(2)**2, 2d0*BL*Z(3)*Z(2) /)
    DN(3,:) = (/ 0.5d0*Z(3)*Z(1), 0.5d0*Z(3)*Z(2), 2d0*BL*w2 + 0.25d0*s2 /)
    DO i = 1, 3
      DO j = 1, 3
        JF(i,j) = DN(i,j)*L + NN(i)*DL*GQ(j)
      ENDDO
    ENDDO
  END SUBROUTINE I11REG

  ! Right-hand side F at U for omega0 = W0, normal load N; with IJAC > 0 also
  ! DFDU(i,j) = dF_i/dU_j and DFDP(i,1:2) = dF_i/d(omega0, N).
  SUBROUTINE PENDULUM_RHS(U, W0, N, F, IJAC, DFDU, DP)
    DOUBLE PRECISION, INTENT(IN) :: U(6), W0, N
    INTEGER, INTENT(IN) :: IJAC
    DOUBLE PRECISION, INTENT(OUT) :: F(6), DFDU(6,6), DP(6,2)
    DOUBLE PRECISION s, c, Z(3), T(3), JF(3,3), DZ(3,6), DT(3,6), FX, FY, MUN
    DOUBLE PRECISION DFX(6), DFY(6), DZW(3), DTW(3)
    INTEGER j
    s = SIN(U(3))
    c = COS(U(3))
    MUN = MU*N
    Z(3) = U(6) - W0
    Z(1) = (U(4) + PE*U(6)*s + W0*(U(2) - PE*s - YS))/RR
    Z(2) = (U(5) - PE*U(6)*c - W0*(U(1) - PE*c - XS))/RR
    CALL I11REG(Z, T, JF)
    FX = -KX*(U(1) - PE*c) - CX*(U(4) + PE*U(6)*s) - MUN*T(1)
    FY = -KY*(U(2) - PE*s) - CY*(U(5) - PE*U(6)*c) - MUN*T(2)
    F(1) = U(4)
    F(2) = U(5)
    F(3) = U(6)
    F(4) = FX/PM
    F(5) = FY/PM
    F(6) = (-PE*(PM*GG - FX)*s - PE*FY*c - CPHI*U(6) - MUN*RR*T(3))/PB
    IF (IJAC == 0) RETURN
    DZ = 0d0
    DZ(1,2) = W0/RR
    DZ(1,3) = PE*c*(U(6) - W0)/RR
    DZ(1,4) = 1d0/RR
    DZ(1,6) = PE*s/RR
    DZ(2,1) = -W0/RR
    DZ(2,3) = PE*s*(U(6) - W0)/RR
    DZ(2,5) = 1d0/RR
    DZ(2,6) = -PE*c/RR
    DZ(3,6) = 1d0
    DT = MATMUL(JF, DZ)
    DFX = -MUN*DT(1,:)
    DFY = -MUN*DT(2,:)
    DFX(1) = DFX(1) - KX
    DFX(3) = DFX(3) - KX*PE*s - CX*PE*U(6)*c
    DFX(4) = DFX(4) - CX
    DFX(6) = DFX(6) - CX*PE*s
    DFY(2) = DFY(2) - KY
    DFY(3) = DFY(3) + KY*PE*c - CY*PE*U(6)*s
    DFY(5) = DFY(5) - CY
    DFY(6) = DFY(6) + CY*PE*c
    DFDU = 0d0
    DFDU(1,4) = 1d0
    DFDU(2,5) = 1d0
    DFDU(3,6) = 1d0
    DO j = 1, 6
      DFDU(4,j) = DFX(j)/PM
      DFDU(5,j) = DFY(j)/PM
      DFDU(6,j) = (PE*s*DFX(j) - PE*c*DFY(j) - MUN*RR*DT(3,j))/PB
    ENDDO
    DFDU(6,3) = DFDU(6,3) + (-PE*(PM*GG - FX)*c + PE*FY*s)/PB
    DFDU(6,6) = DFDU(6,6) - CPHI/PB
    ! d/d omega0
    DZW(1) = (U(2) - PE*s - YS)/RR
    DZW(2) = -(U(1) - PE*c - XS)/RR
    DZW(3) = -1d0
    DTW = MATMUL(JF, DZW)
    DP(1:3,:) = 0d0
    DP(4,1) = -MUN*DTW(1)/PM
    DP(5,1) = -MUN*DTW(2)/PM
    DP(6,1) = (PE*s*(-MUN*DTW(1)) - PE*c*(-MUN*DTW(2)) - MUN*RR*DTW(3))/PB
    ! d/dN
    DP(4,2) = -MU*T(1)/PM
    DP(5,2) = -MU*T(2)/PM
    DP(6,2) = (PE*s*(-MU*T(1)) - PE*c*(-MU*T(2)) - MU*RR*T(3))/PB
  END SUBROUTINE PENDULUM_RHS

END MODULE pendulum_model

SUBROUTINE FUNC(NDIM, U, ICP, PAR, IJAC, F, DFDU, DFDP)
  USE pendulum_model
  IMPLICIT NONE
  INTEGER, INTENT(IN) :: NDIM, ICP(*), IJAC
  DOUBLE PRECISION, INTENT(IN) :: U(NDIM), PAR(*)
  DOUBLE PRECISION, INTENT(OUT) :: F(NDIM)
  DOUBLE PRECISION, INTENT(INOUT) :: DFDU(NDIM,NDIM), DFDP(NDIM,*)
  DOUBLE PRECISION J(6,6), DP(6,2)
  CALL PENDULUM_RHS(U, PAR(1), PAR(2), F, IJAC, J, DP)
  IF (IJAC == 0) RETURN
  DFDU(1:6,1:6) = J
  IF (IJAC == 1) RETURN
  DFDP(1:6,1) = DP(:,1)
  DFDP(1:6,2) = DP(:,2)
END SUBROUTINE FUNC

! The equilibrium at omega0 = 30 rad/s, N = 25 N by Newton's method with the
! analytic Jacobian (AUTO starts from a converged point), from the
! frictionless lower equilibrium (XC = e, phi = 0, at rest), or, with the
! environment variable PENDULUM_START=upper, from the upper one (XC = -e,
! phi = pi): AUTO applies the constants file's PAR and U only after STPNT, so
! they cannot choose the guess.
SUBROUTINE STPNT(NDIM, U, PAR, T)
  USE pendulum_model
  IMPLICIT NONE
  INTEGER, INTENT(IN) :: NDIM
  DOUBLE PRECISION, INTENT(INOUT) :: U(NDIM), PAR(*)
  DOUBLE PRECISION, INTENT(IN) :: T
  DOUBLE PRECISION F(6), J(6,6), DP(6,2), X(6), A(6,7), tmp(7), piv
  INTEGER it, i, k, p
  CHARACTER(LEN=16) start
  PAR(1) = 30d0
  PAR(2) = 25d0
  CALL GET_ENVIRONMENT_VARIABLE('PENDULUM_START', start)
  IF (start == 'upper') THEN
    X = (/ -PE, 0d0, 4d0*ATAN(1d0), 0d0, 0d0, 0d0 /)
  ELSE
    X = (/ PE, 0d0, 0d0, 0d0, 0d0, 0d0 /)
  ENDIF
  DO it = 1, 50
    CALL PENDULUM_RHS(X, PAR(1), PAR(2), F, 1, J, DP)
    A(:,1:6) = J
    A(:,7) = -F
    DO k = 1, 6
      p = k - 1 + MAXLOC(ABS(A(k:6,k)), 1)
      tmp = A(k,:)
      A(k,:) = A(p,:)
      A(p,:) = tmp
      piv = A(k,k)
      DO i = k + 1, 6
        A(i,:) = A(i,:) - A(i,k)/piv*A(k,:)
      ENDDO
    ENDDO
    DO k = 6, 1, -1
      A(k,7) = (A(k,7) - DOT_PRODUCT(A(k,k+1:6), A(k+1:6,7)))/A(k,k)
    ENDDO
    X = X + A(:,7)
    IF (MAXVAL(ABS(A(:,7))) < 1d-15) EXIT
  ENDDO
  U(1:6) = X
END SUBROUTINE STPNT

SUBROUTINE BCND
END SUBROUTINE BCND

SUBROUTINE ICND
END SUBROUTINE ICND

SUBROUTINE FOPT
END SUBROUTINE FOPT

SUBROUTINE PVLS
END SUBROUTINE PVLS
