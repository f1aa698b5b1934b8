! A mixed program: Fortran owns the data and maps it; a C function (scale.c) runs its own kernel
! on the mapped array (present), then a Fortran kernel sums it, weighted by a routine of the
! module (fields.f90, another file: its kernel text comes from the module's translation); a
! module's declared array
! (fields.f90) is allocated twice, at two sizes, updated both ways and deallocated. Built file
! by file with jaccc -c and linked by jaccc from the objects alone (tests/openacc/run.sh).
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
  end interface
  integer, parameter :: n = 5000
  real(c_double) :: x(n), total
  integer :: i, m
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
end program mixed
