! host_data use_device: routines called with the devices' copies, as an MPI call or a CUDA
! library would be: a 2-D allocatable array with a lower bound of 0 and a 1-D one in one
! construct, an if clause, and if_present on an array no data construct maps (the routine then
! gets the host's). Each routine writes what it is passed: the results show which copy that was.
! corpus: host devices only (host routines write the copies, which only a host device's are
! memory the host can write; on a GPU the call would be a CUDA library's)
program host_data
  implicit none
  integer, parameter :: n = 48, m = 30
  real(8), allocatable :: u(:, :)
  real(8) :: c(n), w(10)
  integer :: i, j
  logical :: on
  allocate (u(0:n + 1, m))
  u = 1
  c = [(i * 0.5d0, i = 1, n)]
  w = 2
  on = n > 0
  !$acc data copy(u, c)
  !$acc parallel loop collapse(2)
  do j = 1, m
    do i = 0, n + 1
      u(i, j) = u(i, j) + i + j
    end do
  end do
  !$acc host_data use_device(u, c)
  call scale_columns(u, c, n, m)
  !$acc end host_data
  !$acc host_data use_device(c) if(on)
  call add_to(c, n, 1.0d0)
  !$acc end host_data
  !$acc host_data use_device(w) if_present
  call add_to(w, 10, 3.0d0)
  !$acc end host_data
  !$acc parallel loop
  do j = 1, m
    u(0, j) = u(0, j) + c(j)
  end do
  !$acc end data
  write (*, '(a, 3f16.4)') 'sums ', sum(u), sum(c), sum(w)
  write (*, '(a, 3f12.4)') 'corners ', u(0, 1), u(n + 1, m), u(5, 7)
contains
  subroutine scale_columns(v, s, n, m)
    integer, intent(in) :: n, m
    real(8), intent(inout) :: v(0:n + 1, m)
    real(8), intent(in) :: s(n)
    integer :: i, j
    do j = 1, m
      do i = 1, n
        v(i, j) = v(i, j) * s(i)
      end do
    end do
  end subroutine scale_columns
  subroutine add_to(x, k, d)
    integer, intent(in) :: k
    real(8), intent(inout) :: x(k)
    real(8), intent(in) :: d
    x = x + d
  end subroutine add_to
end program host_data
