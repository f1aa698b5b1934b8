! A module whose allocatable array has a device copy for its lifetime (declare create): the
! program that uses it is another file, compiled after it in the same directory, where gfortran
! leaves its own module file (tests/openacc/run.sh).
module fields
  use iso_c_binding
  implicit none
  real(c_double), allocatable :: w(:)
  !$acc declare create(w)
end module fields
