! Fortran the translation rejects, each at its file, line and column with the fix (link is not).
module unsupported
  implicit none
  real :: field(10)
  !$acc declare link(field)
end module unsupported

subroutine rejected(n, a, p, x)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), x(*)
  real(8), pointer :: p(:)
  integer :: i
  real(8) :: m
  !$acc parallel loop
  do i = 1, n
    !$acc atomic update
    m = a(i) + 2 * m
  end do
  !$acc parallel loop
  do i = 1, n
    a(:) = a(n:1:-1)
  end do
  !$acc parallel loop copy(a(1:n:2), x)
  do i = 1, n
    x(i) = p(i)
  end do
end subroutine rejected

subroutine device_addresses(n, a, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), s
  !$acc host_data use_device(s, a(2:n))
  call library_call(a, s)
  !$acc end host_data
end subroutine device_addresses
