! Array syntax inside compute constructs: whole-array and section assignments at a kernels
! construct's top level (loops the devices share), sections with strides and whole columns in a
! parallel loop's body (a private work array filled by array assignments), and a section with
! only a lower bound in a serial construct; a vector subscript and a sum inside an assignment
! of a column, a vector subscript on the left side (a scatter through a permutation), and
! matmul and transpose.
program array_syntax
  implicit none
  integer, parameter :: n = 64, m = 40
  real(8) :: a(n, m), b(n, m), c(n), w(0:9), g(6, 6), h(6)
  real(8), allocatable :: u(:, :)
  integer :: i, j, rev(n)
  allocate (u(0:n + 1, m))
  do j = 1, m
    do i = 1, n
      b(i, j) = i * 0.5d0 + j
    end do
  end do
  do i = 1, n
    rev(i) = n + 1 - i
  end do
  u = 1
  !$acc kernels copyout(a) copyin(b) copy(u)
  a = 2 * b + 1
  u(1:n, :) = u(1:n, :) + b * 0.25d0
  !$acc end kernels
  write (*, '(a, 2f14.4)') 'kernels ', sum(a), sum(u)
  c = 0
  !$acc parallel loop copyin(b, rev) copy(a) private(w)
  do j = 1, m
    w(:) = j
    w(1:9:2) = 0
    a(:, j) = b(:, j) + w(0) + w(1) + w(9)
    a(2:n:2, j) = -a(2:n:2, j)
    ! A vector subscript, and a reduction of the assigned column, evaluated before it assigns.
    a(:, j) = b(rev, j) / sum(abs(a(:, j))) * 1000
  end do
  write (*, '(a, 2f14.4)') 'loop bodies ', sum(a), a(2, 3)
  !$acc parallel loop copyin(b, rev) copy(u)
  do j = 1, m
    u(rev, j) = b(:, j) * j
  end do
  write (*, '(a, 2f14.4)') 'scatter ', sum(u(1:n, :)), u(1, 2)
  !$acc kernels copyin(a, b) copyout(w, g, h)
  g(:, :) = matmul(transpose(b(1:8, 1:6)), b(1:8, 1:6))
  h = matmul(g, a(1:6, 2)) / 100
  w(0:5) = matmul(a(1:8, 3), b(1:8, 1:6))
  !$acc end kernels
  write (*, '(a, 3f14.4)') 'matmul ', sum(g), sum(h), sum(w(0:5))
  !$acc serial copy(c)
  c(n / 2:) = 3
  !$acc end serial
  write (*, '(a, f14.4)') 'serial ', sum(c)
end program array_syntax
