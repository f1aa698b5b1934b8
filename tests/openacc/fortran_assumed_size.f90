! Assumed-size dummy arguments (x(*), a(lda, *)), as FORTRAN 77 libraries declare them: a
! daxpy mapping the sections it uses (x(1:n), y(1:n)), a column scaling and a matrix-vector
! product on a leading dimension larger than the rows used, inside a data region the caller
! opens on whole arrays, and an update of a section.
subroutine daxpy(n, alpha, x, y)
  implicit none
  integer :: n, i
  double precision :: alpha, x(*), y(*)
  !$acc parallel loop copyin(x(1:n)) copy(y(1:n))
  do i = 1, n
    y(i) = y(i) + alpha * x(i)
  end do
end subroutine daxpy

subroutine colscale(m, n, a, lda, s)
  implicit none
  integer :: m, n, lda, i, j
  double precision :: a(lda, *), s(*)
  !$acc parallel loop collapse(2) present(a(:, 1:n), s(1:n))
  do j = 1, n
    do i = 1, m
      a(i, j) = a(i, j) * s(j)
    end do
  end do
end subroutine colscale

subroutine gemv(m, n, a, lda, x, y)
  implicit none
  integer :: m, n, lda, i, j
  double precision :: a(lda, *), x(*), y(*), t
  ! No clause names a, x, y: the caller's data region holds them.
  !$acc parallel loop private(t)
  do i = 1, m
    t = 0
    do j = 1, n
      t = t + a(i, j) * x(j)
    end do
    y(i) = t
  end do
end subroutine gemv

program assumed_size
  implicit none
  integer, parameter :: lda = 40, m = 33, n = 25
  double precision :: a(lda, n), x(n), y(lda), s(n)
  integer :: i, j
  do j = 1, n
    x(j) = 1 + mod(j, 4) * 0.5d0
    s(j) = 1.0d0 / j
    do i = 1, lda
      a(i, j) = mod(i + 2 * j, 9) - 4
    end do
  end do
  y = 0
  call daxpy(n, 2d0, x, y)
  !$acc data copy(a) copyin(x, s) copyout(y)
  call colscale(m, n, a, lda, s)
  call gemv(m, n, a, lda, x, y)
  call daxpy(n, -0.5d0, x, y)
  !$acc update self(y(1:3))
  write (*, '(a, 3f12.4)') 'head ', y(1:3)
  !$acc end data
  write (*, '(a, 3f14.4)') 'sums ', sum(a(1:m, :)), sum(y(1:m)), sum(a(m + 1:, :))
end program assumed_size
