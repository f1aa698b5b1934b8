! Fortran constructs and their glue: a combined loop over a 2-D array with a lower bound of 0,
! collapse and reduction; a kernels block with a loop directive and a private scalar; a serial
! construct assigning a scalar; a data region with a section; enter/exit data, update, wait.
subroutine constructs(n, m, a, b, s)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(0:n - 1, m), b(n)
  real(8), intent(out) :: s
  real(8) :: t
  integer :: i, j, last
  !$acc data copy(a) copyin(b(1:n))
  !$acc parallel loop collapse(2) reduction(+:s)
  do j = 2, m
    do i = 0, n - 1
      a(i, j) = a(i, j) * b(i + 1)
      s = s + a(i, j)
    end do
  end do
  !$acc kernels
  !$acc loop independent
  do i = 1, n
    t = b(i) * 2
    b(i) = sqrt(abs(t)) + min(t, 1.0d0, b(i))
  end do
  !$acc end kernels
  !$acc end data
  !$acc serial copyout(last)
  last = n + m
  !$acc end serial
  !$acc enter data create(b)
  !$acc update device(b(2:n))
  !$acc exit data copyout(b) finalize
  !$acc wait
end subroutine constructs

! An if clause (the loop stays for the host), DO CONCURRENT with a mask, a scalar carried from
! one iteration to the next (shared, not private), no_create, update if_present, wait with a
! queue, init.
subroutine more(n, a, b, flag)
  implicit none
  integer, intent(in) :: n
  real(4), intent(inout) :: a(n), b(n)
  logical, intent(in) :: flag
  real(4) :: carry
  integer :: i
  !$acc init
  !$acc parallel loop if(flag .and. n > 100) no_create(b)
  do i = 1, n
    a(i) = a(i) + 1
  end do
  !$acc kernels
  do concurrent (i = 1:n, a(i) > 0)
    b(i) = a(i) ** 2
  end do
  carry = 0
  !$acc loop seq
  do i = 1, n
    carry = carry + a(i)
    b(i) = carry
  end do
  !$acc end kernels
  !$acc update self(a) if_present
  !$acc wait(1)
end subroutine more

! host_data: a routine called with the device copies of a 2-D array with a lower bound of 0 and
! of a 1-D one, under an if clause; if_present.
subroutine device_copies(n, a, b, flag)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(0:n, n), b(n)
  logical, intent(in) :: flag
  external :: library_call
  !$acc host_data use_device(a, b) if(flag)
  call library_call(a, b, n)
  !$acc end host_data
  !$acc host_data use_device(b) if_present
  call library_call(a, b, n)
  !$acc end host_data
end subroutine device_copies
