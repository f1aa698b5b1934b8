! Alternating-direction sweeps in Fortran: each x sweep runs a recurrence along i for every
! column j (parallel over j), each y sweep along j for every i (parallel over i), on explicit-
! shape dummy arrays inside a data region the caller opens (present clauses); a kernels loop
! scales the result, and a reduction sums it.
subroutine sweep_x(n, m, u)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: u(n, m)
  integer :: i, j
  !$acc parallel loop present(u)
  do j = 1, m
    do i = 2, n
      u(i, j) = 0.5d0 * (u(i, j) + u(i - 1, j))
    end do
  end do
end subroutine sweep_x

subroutine sweep_y(n, m, u)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: u(n, m)
  integer :: i, j
  !$acc parallel loop present(u)
  do i = 1, n
    do j = 2, m
      u(i, j) = 0.5d0 * (u(i, j) + u(i, j - 1))
    end do
  end do
end subroutine sweep_y

program adi
  implicit none
  integer, parameter :: n = 40, m = 24
  real(8) :: u(n, m), total, scale
  integer :: i, j, it
  do j = 1, m
    do i = 1, n
      u(i, j) = mod(i * 7 + j * 3, 11)
    end do
  end do
  scale = 0.5d0
  !$acc data copy(u)
  do it = 1, 5
    call sweep_x(n, m, u)
    call sweep_y(n, m, u)
  end do
  !$acc kernels loop present(u)
  do j = 1, m
    do i = 1, n
      u(i, j) = u(i, j) * scale
    end do
  end do
  total = 0
  !$acc parallel loop collapse(2) reduction(+:total)
  do j = 1, m
    do i = 1, n
      total = total + u(i, j)
    end do
  end do
  !$acc end data
  write (*, '(a, f14.6, a, f10.6, a, f10.6)') 'adi total ', total, ' u(n,m) ', u(n, m), &
    ' u(1,1) ', u(1, 1)
end program adi
