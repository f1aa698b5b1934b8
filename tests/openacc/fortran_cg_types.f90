! Conjugate gradients on derived types: the matrix an array of rows, each a count and a fixed
! array of entries (a type nested in a type), the vectors an array of one type holding every
! vector's element, the problem's sizes a scalar of a type read by the kernels, the solver's
! state a scalar of an extended type whose components a serial construct assigns; a whole
! element of a type copied in a kernel; a routine taking a row and the vectors. The matrix is
! 1-D Poisson's plus a shift, the right side that of the solution 1, 2, 1, 2, ...
module cg_types
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type entry
    integer :: col
    real(dp) :: val
  end type entry
  type row
    integer :: count
    type(entry) :: e(3)
  end type row
  type vectors
    real(dp) :: x, r, p, q
  end type vectors
  type sizes
    integer :: n
    real(dp) :: shift
  end type sizes
  type state
    integer :: iterations
    real(dp) :: rr
  end type state
  type, extends(state) :: checked_state
    logical :: small
  end type checked_state
contains
  ! A row times the vectors' p: a routine taking a type by value and an array of one.
  real(dp) function row_times_p(r, n, v)
    !$acc routine seq
    type(row), intent(in) :: r
    integer, intent(in) :: n
    type(vectors), intent(in) :: v(n)
    integer :: k
    row_times_p = 0
    do k = 1, r%count
      row_times_p = row_times_p + r%e(k)%val * v(r%e(k)%col)%p
    end do
  end function row_times_p
end module cg_types

program cg
  use cg_types
  implicit none
  integer, parameter :: n = 3000, steps = 40
  type(row) :: a(n)
  type(vectors) :: v(n), start(n)
  type(sizes) :: prm
  type(checked_state) :: st
  real(dp) :: rr, pq, alpha, beta, rrnew, s, err
  integer :: i, k, it

  prm%n = n
  prm%shift = 0.5_dp
  do i = 1, n
    a(i)%count = 0
    if (i > 1) then
      a(i)%count = a(i)%count + 1
      a(i)%e(a(i)%count) = entry(i - 1, -1.0_dp)
    end if
    a(i)%count = a(i)%count + 1
    a(i)%e(a(i)%count) = entry(i, 2.0_dp + prm%shift)
    if (i < n) then
      a(i)%count = a(i)%count + 1
      a(i)%e(a(i)%count) = entry(i + 1, -1.0_dp)
    end if
  end do

  !$acc data copyin(a, prm) copy(v) create(start)
  ! r = p = b = A * solution, x = 0
  !$acc parallel loop private(s)
  do i = 1, prm%n
    s = 0
    do k = 1, a(i)%count
      s = s + a(i)%e(k)%val * (1 + mod(a(i)%e(k)%col - 1, 2))
    end do
    v(i)%x = 0
    v(i)%r = s
    v(i)%p = s
    v(i)%q = 0
    start(i) = v(i)
  end do
  rr = 0
  !$acc parallel loop reduction(+:rr)
  do i = 1, prm%n
    rr = rr + v(i)%r * v(i)%r
  end do
  do it = 1, steps
    ! q = A p (a routine on odd steps)
    if (mod(it, 2) == 1) then
      !$acc parallel loop
      do i = 1, prm%n
        v(i)%q = row_times_p(a(i), prm%n, v)
      end do
    else
      !$acc parallel loop private(s)
      do i = 1, prm%n
        s = 0
        do k = 1, a(i)%count
          s = s + a(i)%e(k)%val * v(a(i)%e(k)%col)%p
        end do
        v(i)%q = s
      end do
    end if
    pq = 0
    !$acc parallel loop reduction(+:pq)
    do i = 1, prm%n
      pq = pq + v(i)%p * v(i)%q
    end do
    alpha = rr / pq
    rrnew = 0
    !$acc parallel loop reduction(+:rrnew)
    do i = 1, prm%n
      v(i)%x = v(i)%x + alpha * v(i)%p
      v(i)%r = v(i)%r - alpha * v(i)%q
      rrnew = rrnew + v(i)%r * v(i)%r
    end do
    beta = rrnew / rr
    rr = rrnew
    !$acc parallel loop
    do i = 1, prm%n
      v(i)%p = v(i)%r + beta * v(i)%p
    end do
  end do
  !$acc serial
  st%iterations = steps
  st%rr = rr
  st%small = rr < 1.0d-8
  !$acc end serial
  !$acc update self(start)
  !$acc end data

  err = 0
  do i = 1, n
    err = max(err, abs(v(i)%x - (1 + mod(i - 1, 2))))
  end do
  write (*, '(a, i4, l2, l2)') 'cg: steps, converged, small ', st%iterations, err < 1.0d-6, &
      st%small
  write (*, '(a, 2f10.3)') 'start: r(1), p(n) ', start(1)%r, start(n)%p
end program cg
