! A Jacobi solver on a derived type holding its arrays: allocatable components (with lower bounds
! 0, of rank 1 and 2) in enter/exit data, present and update clauses and in kernels, scalar
! components read by kernels (loop bounds, coefficients), a component array no clause names
! (copied implicitly), and one type nested in another.
module field_types
  implicit none
  type grid
    integer :: nx, ny
    real(8) :: h
  end type grid
  type field
    type(grid) :: g
    real(8), allocatable :: u(:, :), unew(:, :)
    real(8), allocatable :: weight(:)
    integer, allocatable :: hits(:)
  end type field
end module field_types

program field_jacobi
  use field_types
  implicit none
  type(field) :: f
  integer :: i, j, it
  real(8) :: total, change

  f%g%nx = 120
  f%g%ny = 90
  f%g%h = 1.0d0 / 121
  allocate(f%u(0:f%g%nx + 1, 0:f%g%ny + 1), f%unew(0:f%g%nx + 1, 0:f%g%ny + 1))
  allocate(f%weight(f%g%ny), f%hits(f%g%ny))
  f%u = 0
  f%unew = 0
  do j = 0, f%g%ny + 1
    f%u(0, j) = 1
    f%unew(0, j) = 1
  end do
  do j = 1, f%g%ny
    f%weight(j) = 1 + 0.1d0 * mod(j, 3)
  end do
  f%hits = 0

  !$acc enter data copyin(f%u, f%weight) create(f%unew)
  !$acc update device(f%unew)
  do it = 1, 60
    !$acc parallel loop collapse(2) present(f%u, f%unew)
    do j = 1, f%g%ny
      do i = 1, f%g%nx
        f%unew(i, j) = 0.25d0 * (f%u(i - 1, j) + f%u(i + 1, j) + f%u(i, j - 1) + f%u(i, j + 1))
      end do
    end do
    change = 0
    !$acc parallel loop collapse(2) present(f%u, f%unew) reduction(max:change)
    do j = 1, f%g%ny
      do i = 1, f%g%nx
        change = max(change, abs(f%unew(i, j) - f%u(i, j)))
        f%u(i, j) = f%unew(i, j)
      end do
    end do
  end do
  ! f%hits is in no clause: copied in and out around the construct.
  total = 0
  !$acc parallel loop reduction(+:total)
  do j = 1, f%g%ny
    f%hits(j) = f%hits(j) + j
    do i = 1, f%g%nx
      total = total + f%weight(j) * f%u(i, j) * f%g%h * f%g%h
    end do
  end do
  !$acc exit data copyout(f%u) delete(f%unew, f%weight)

  write (*, '(a, f11.7, es10.2)') 'field: weighted sum, last change ', total, change
  write (*, '(a, 3f10.6)') 'u(1,1), u(3,45), u(8,nx) ', f%u(1, 1), f%u(3, 45), &
      f%u(8, f%g%ny)
  write (*, '(a, i6)') 'hits ', sum(f%hits)
end program field_jacobi
