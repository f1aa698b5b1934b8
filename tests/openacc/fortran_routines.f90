! Routines called in kernels: module functions and subroutines (a function calling another,
! scalars assigned through their arguments, an explicit-shape column, an assumed-shape row,
! a local work array, a whole array of rank 2 with bounds from the arguments, a module
! variable read by a routine and, through it, by its callers), an external
! subroutine named by `routine(name)` in its caller, and a routine with a vector loop called
! once per gang iteration.
module shapes
  implicit none
  real(8) :: softness
contains
  real(8) function smooth(x)
    !$acc routine seq
    real(8), intent(in) :: x
    smooth = x / (softness + abs(x))
  end function

  real(8) function energy(n, v)
    !$acc routine seq
    integer, intent(in) :: n
    real(8), intent(in) :: v(n)
    integer :: k
    energy = 0
    do k = 1, n
      energy = energy + smooth(v(k))**2
    end do
  end function

  subroutine bounds(x, lo, hi)
    !$acc routine seq
    real(8), intent(in) :: x
    real(8) :: lo, hi
    if (x < lo) lo = x
    if (x > hi) hi = x
  end subroutine

  real(8) function interior(n, m, a)
    !$acc routine seq
    integer, intent(in) :: n, m
    real(8), intent(in) :: a(0:n + 1, m)
    integer :: i, j
    interior = 0
    do j = 2, m - 1
      do i = 1, n
        interior = interior + a(i, j) * j
      end do
    end do
  end function

  subroutine relax(n, col, weights)
    !$acc routine vector
    integer, value :: n
    real(8) :: col(0:n + 1)
    real(8), intent(in) :: weights(:)
    real(8) :: work(3)
    integer :: k
    work = weights(1:3)
    !$acc loop vector
    do k = 1, n
      col(k) = work(1) * col(k) + work(2) * smooth(col(k - 1)) + work(3)
    end do
  end subroutine
end module

subroutine clamp(x, lo, hi)
  !$acc routine seq
  real(8) :: x
  real(8), intent(in) :: lo, hi
  x = min(max(x, lo), hi)
end subroutine

program routines
  use shapes
  implicit none
  integer, parameter :: n = 48, m = 30
  real(8) :: a(0:n + 1, m), e(m), lo(m), hi(m), w(3), total
  integer :: i, j
  external :: clamp
  !$acc routine(clamp) seq
  do j = 1, m
    do i = 0, n + 1
      a(i, j) = sin(0.1d0 * i * j) * 3
    end do
  end do
  w = [0.5d0, 0.25d0, 0.125d0]
  softness = 1
  !$acc parallel loop gang copy(a) copyin(w)
  do j = 1, m
    call relax(n, a(:, j), w)
  end do
  !$acc parallel loop copy(a) copyout(e, lo, hi)
  do j = 1, m
    lo(j) = 1d30
    hi(j) = -1d30
    do i = 1, n
      call clamp(a(i, j), -1.5d0, 1.5d0)
      call bounds(a(i, j), lo(j), hi(j))
    end do
    e(j) = energy(n, a(1, j))
  end do
  write (*, '(a, 3f16.8)') 'routines ', sum(e), sum(lo), sum(hi)
  write (*, '(a, 2f16.8)') 'columns  ', sum(a(1:n, :)), a(n / 2, m / 2)
  !$acc serial copyin(a) copyout(total)
  total = interior(n, m, a)
  !$acc end serial
  write (*, '(a, f16.8)') 'interior ', total
end program
