! A module whose allocatable array has a device copy for its lifetime (declare create), and a
! routine reading a scalar of the module: the program that uses them is another file, compiled
! after it in the same directory, where gfortran leaves its own module file and jaccc the
! routine's kernel text (tests/openacc/run.sh).
module fields
  use iso_c_binding
  implicit none
  real(c_double), allocatable :: w(:)
  !$acc declare create(w)
  real(c_double) :: weight
contains
  real(c_double) function weighted(x)
    !$acc routine seq
    real(c_double), intent(in) :: x
    weighted = weight * x
  end function
end module fields
