! Pointers a directive cannot take: one at a row of a matrix (not contiguous) with argument
! 'row', a disassociated one otherwise. The program ends at the directive, exit status 1, with
! the fix in its message (tests/openacc/run.sh).
program pointer_state
  implicit none
  real(8), allocatable, target :: store(:, :)
  real(8), pointer :: q(:)
  character(8) :: how
  integer :: i
  call get_command_argument(1, how)
  allocate (store(4, 5))
  store = 1
  if (how == 'row') then
    q => store(2, :)
  else
    nullify (q)
  end if
  !$acc parallel loop copy(q)
  do i = 1, 5
    q(i) = 0
  end do
  print *, sum(store)
end program pointer_state
