! External routines (in no module) that the kernels of another file (main.f90) call through the
! interfaces it declares: jaccc registers each, as its interface passes the arguments, for the
! kernels of other files, and the runtime links it into a kernel calling it when that kernel
! first runs (docs/translate.md, "Routines across files"). edge_sum carries bump, a routine of
! this file, with it; main.f90 calls shift without an interface.
subroutine relax(n, col, factor)
  !$acc routine seq
  integer, value :: n
  real(8) :: col(n)
  real(8), intent(in) :: factor
  integer :: k
  do k = 2, n
    col(k) = col(k) + factor * col(k - 1)
  end do
end subroutine relax

real(8) function edge_sum(v)
  !$acc routine seq
  real(8), intent(in) :: v(:)
  real(8) :: bump
  edge_sum = v(1) + v(size(v)) + bump(v(2))
end function edge_sum

real(8) function bump(x)
  !$acc routine seq
  real(8), intent(in) :: x
  bump = 0.5d0 * x
end function bump

subroutine accumulate(total, x)
  !$acc routine seq
  real(8) :: total ! no intent: the interface passes it by address
  real(8), intent(in) :: x
  total = total + x
end subroutine accumulate

subroutine shift(col, n, by)
  !$acc routine seq
  integer :: n, k
  real(8) :: col(n), by ! called without an interface: every argument by address
  do k = 1, n
    col(k) = col(k) + by
  end do
end subroutine shift
