! A 2-D heat solver in Fortran: the grid is a module's allocatable arrays with lower bound 0,
! the work array declared (declare create: its device copy lives as long as it is allocated), a
! data region keeps the grid on the devices across the sweeps, each sweep a collapsed parallel
! loop with a max reduction of the change and clauses in device_type groups, then a copy-back
! loop; whole-array and section clauses.
module heat_grid
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), allocatable :: t(:, :), tnew(:, :)
  integer :: nx, ny
  !$acc declare create(tnew)
end module heat_grid

program heat2d
  use heat_grid
  implicit none
  integer :: i, j, step
  real(dp) :: change, total
  nx = 48
  ny = 32
  allocate(t(0:nx + 1, 0:ny + 1), tnew(0:nx + 1, 0:ny + 1))
  t = 0.0_dp
  t(0, :) = 100.0_dp
  t(:, 0) = 50.0_dp
  !$acc data copy(t)
  !$acc parallel loop collapse(2)
  do j = 0, ny + 1
    do i = 0, nx + 1
      tnew(i, j) = t(i, j)
    end do
  end do
  do step = 1, 150
    change = 0.0_dp
    !$acc parallel loop collapse(2) reduction(max:change) device_type(nvidia) vector_length(128) device_type(host) num_gangs(2)
    do j = 1, ny
      do i = 1, nx
        tnew(i, j) = 0.25_dp * (t(i - 1, j) + t(i + 1, j) + t(i, j - 1) + t(i, j + 1))
        change = max(change, abs(tnew(i, j) - t(i, j)))
      end do
    end do
    !$acc parallel loop
    do j = 1, ny
      do i = 1, nx
        t(i, j) = tnew(i, j)
      end do
    end do
  end do
  !$acc update self(t(:, 0:ny / 2))
  !$acc end data
  total = 0.0_dp
  do j = 1, ny
    do i = 1, nx
      total = total + t(i, j)
    end do
  end do
  write (*, '(a, f12.4, a, f10.6)') 'heat total ', total, ' last change ', change
  deallocate(t, tnew)
end program heat2d
