! declare in procedures: a subroutine's declare copy of a section of its dummy argument, called
! once per column inside a data region that holds the other arrays (present), as the V&V tests
! do; a function's declare create of an automatic work array, left early by a RETURN on one
! path; the main program's declare copyin, updated once the program has filled the array; a
! module array declared link, mapped by the data clause of the construct that reads it.
module declares_work
  implicit none
  real(8) :: coef(16)
  !$acc declare link(coef)
contains
  subroutine add_column(a, b, c, n)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n), b(n)
    real(8), intent(inout) :: c(n)
    integer :: i
    !$acc declare copy(c(1:n))
    !$acc parallel loop present(a, b)
    do i = 1, n
      c(i) = c(i) + a(i) * b(i)
    end do
  end subroutine add_column

  real(8) function weighted(x, n, k)
    integer, intent(in) :: n, k
    real(8), intent(in) :: x(n)
    real(8) :: w(n), t
    integer :: i
    !$acc declare create(w)
    weighted = -1
    if (k < 0) return
    !$acc parallel loop present(x)
    do i = 1, n
      w(i) = x(i) * (i + k)
    end do
    t = 0
    !$acc parallel loop reduction(+:t)
    do i = 1, n
      t = t + w(i)
    end do
    weighted = t
  end function weighted
end module declares_work

program declares
  use declares_work
  implicit none
  integer, parameter :: n = 200, m = 12
  real(8) :: a(n, m), b(n, m), c(n, m), v(n), s, r
  integer :: i, j
  !$acc declare copyin(v)
  v = [(1.0d0 / i, i = 1, n)]
  !$acc update device(v)
  do j = 1, m
    do i = 1, n
      a(i, j) = i + j
      b(i, j) = 1.0d0 / (i * j)
    end do
  end do
  c = 1
  !$acc data copyin(a, b)
  do j = 1, m
    call add_column(a(:, j), b(:, j), c(:, j), n)
  end do
  !$acc end data
  s = 0
  do j = 0, 3
    s = s + weighted(v, n, j) + weighted(v, n, -j - 1)
  end do
  coef = [(0.5d0 * i, i = 1, 16)]
  r = 0
  !$acc parallel loop copyin(coef) reduction(+:r)
  do i = 1, 16
    r = r + coef(i) * i
  end do
  write (*, '(a, 3f18.8)') 'sums ', sum(c), s, r
  write (*, '(a, 3f14.8)') 'c ', c(1, 1), c(n, m), c(7, 5)
end program declares
