! An assumed-size array a kernel uses with no clause naming it and no mapping around the
! construct: its extent is unknown, so nothing can copy it; the program ends at the directive,
! naming the section to map (tests/openacc/run.sh).
subroutine twice(n, v)
  implicit none
  integer :: n, i
  real :: v(*)
  !$acc parallel loop
  do i = 1, n
    v(i) = 2 * v(i)
  end do
end subroutine twice

program absent
  implicit none
  real :: v(8)
  v = 1
  call twice(8, v)
  print *, v
end program absent
