! Alternating-direction sweeps in Fortran for tests/bench/fortran_bench.sh: STEPS steps on an
! N x N grid inside one data region, each an x sweep (a recurrence along i for every column j,
! parallel over j) and a y sweep (along j for every i, parallel over i); prints the grid's sum
! and the steps' seconds (system_clock). adi.c is its C twin, the same arithmetic.
program adi
  implicit none
  integer, parameter :: n = 1024, steps = 20
  real(8), allocatable :: u(:, :)
  real(8) :: total
  integer :: i, j, s
  integer(8) :: t0, t1, rate
  allocate(u(n, n))
  do j = 1, n
    do i = 1, n
      u(i, j) = mod(i * 7 + j * 3, 11)
    end do
  end do
  !$acc data copy(u)
  call system_clock(t0, rate)
  do s = 1, steps
    !$acc parallel loop
    do j = 1, n
      do i = 2, n
        u(i, j) = 0.5d0 * u(i, j) + 0.25d0 * u(i - 1, j) + 0.125d0
      end do
    end do
    !$acc parallel loop
    do i = 1, n
      do j = 2, n
        u(i, j) = 0.5d0 * u(i, j) + 0.25d0 * u(i, j - 1) + 0.125d0
      end do
    end do
  end do
  call system_clock(t1)
  !$acc end data
  total = 0
  do j = 1, n
    do i = 1, n
      total = total + u(i, j)
    end do
  end do
  write (*, '(a, f16.6, a, f10.4)') 'sum ', total, ' seconds ', real(t1 - t0, 8) / rate
end program adi
