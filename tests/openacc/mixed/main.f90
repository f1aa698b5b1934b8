! A mixed program: Fortran owns the data and maps it; a C function (scale.c) runs its own kernel
! on the mapped array (present), then a Fortran kernel sums it, weighted by a routine of the
! module (fields.f90, another file: its kernel text comes from the module's translation); a
! module's declared array
! (fields.f90) is allocated twice, at two sizes, updated both ways and deallocated. Built file
! by file with jaccc -c and linked by jaccc from the objects alone (tests/openacc/run.sh). Its
! last kernels call external routines of columns.f90 through interface blocks.
program mixed
  use iso_c_binding
  use fields
  implicit none
  interface
    subroutine scale_on_devices(n, x, factor) bind(C, name="scale_on_devices")
      import :: c_int, c_double
      integer(c_int), value :: n
      real(c_double) :: x(n)
      real(c_double), value :: factor
    end subroutine
    subroutine relax(n, col, factor)
      !$acc routine seq
      integer, value :: n
      real(8) :: col(n)
      real(8), intent(in) :: factor
    end subroutine
    real(8) function edge_sum(v)
      !$acc routine seq
      real(8), intent(in) :: v(:)
    end function
    subroutine accumulate(total, x)
      !$acc routine seq
      real(8) :: total
      real(8), intent(in) :: x
    end subroutine
  end interface
  integer, parameter :: n = 5000
  real(c_double) :: x(n), total
  real(8) :: grid(50, 40), edges, running
  external shift
  !$acc routine(shift) seq
  integer :: i, j, m
  do i = 1, n
    x(i) = mod(i, 10)
  end do
  total = 0
  weight = 0.5d0
  !$acc data copy(x)
  call scale_on_devices(n, x, 3.0d0)
  !$acc parallel loop reduction(+:total)
  do i = 1, n
    total = total + weighted(x(i))
  end do
  !$acc end data
  write (*, '(a, f12.1, f6.1)') 'mixed ', total, x(n - 1)
  do m = 100, 300, 200
    allocate (w(m))
    w = 1
    !$acc update device(w)
    !$acc parallel loop
    do i = 1, m
      w(i) = w(i) * i
    end do
    !$acc update self(w)
    write (*, '(a, i4, f10.1)') 'declared ', m, sum(w)
    if (allocated(w)) deallocate (w)
  end do
  ! External routines of another file (columns.f90), through the interfaces above.
  do j = 1, 40
    do i = 1, 50
      grid(i, j) = mod(i * j, 7)
    end do
  end do
  !$acc data copy(grid)
  !$acc parallel loop
  do j = 1, 40
    call relax(50, grid(:, j), 0.25d0)
    call shift(grid(11, j), 10, 0.5d0 * j)
  end do
  edges = 0
  !$acc parallel loop reduction(+:edges)
  do j = 1, 40
    edges = edges + edge_sum(grid(:, j))
  end do
  running = 0
  !$acc serial copy(running)
  do j = 1, 40
    call accumulate(running, grid(50, j))
  end do
  !$acc end serial
  !$acc end data
  write (*, '(a, 3f14.4)') 'external ', sum(grid), edges, running
end program mixed
