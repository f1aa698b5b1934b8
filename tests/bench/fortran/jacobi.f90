! A 2-D Jacobi solver in Fortran for tests/bench/fortran_bench.sh: SWEEPS sweeps of an N x N grid
! inside one data region, each sweep a stencil into `new` and a copy back; prints the grid's sum
! and the sweeps' seconds (system_clock). jacobi.c is its C twin, the same arithmetic.
program jacobi
  implicit none
  integer, parameter :: n = 2048, sweeps = 60
  real(8), allocatable :: a(:, :), new(:, :)
  real(8) :: total
  integer :: i, j, s
  integer(8) :: t0, t1, rate
  allocate(a(n, n), new(n, n))
  do j = 1, n
    do i = 1, n
      a(i, j) = 0
      if (i == 1 .or. j == 1) a(i, j) = 1
    end do
  end do
  new = a
  !$acc data copy(a) copyin(new)
  call system_clock(t0, rate)
  do s = 1, sweeps
    !$acc parallel loop
    do j = 2, n - 1
      do i = 2, n - 1
        new(i, j) = 0.25d0 * (a(i - 1, j) + a(i + 1, j) + a(i, j - 1) + a(i, j + 1))
      end do
    end do
    !$acc parallel loop
    do j = 2, n - 1
      do i = 2, n - 1
        a(i, j) = new(i, j)
      end do
    end do
  end do
  call system_clock(t1)
  !$acc end data
  total = 0
  do j = 1, n
    do i = 1, n
      total = total + a(i, j)
    end do
  end do
  write (*, '(a, f16.6, a, f10.4)') 'sum ', total, ' seconds ', real(t1 - t0, 8) / rate
end program jacobi
