! Private and firstprivate arrays: a work array per point (whole, on a combined construct), a
! 2-D firstprivate table under collapse(2), a parallel construct's gang loop with a private
! section (a gang's scratch filled by a vector loop and summed by a seq loop), a construct-level
! private array, an allocatable private array, and a serial construct's firstprivate copy.
program private_arrays
  implicit none
  integer, parameter :: n = 2000
  real(8) :: x(n), y(n), coef(0:6), tab(2, 5), d(40), c(10)
  real(8), allocatable :: s(:)
  integer :: i, j, k, g

  do i = 1, n
    x(i) = mod(i, 200) * 0.01d0 - 1.0d0
  end do
  ! Horner's rule with each point's own coefficients (built in a private array).
  !$acc parallel loop private(coef) copyin(x) copyout(y)
  do i = 1, n
    do k = 0, 6
      coef(k) = 1.0d0 / (k + 1 + mod(i, 3))
    end do
    y(i) = coef(6)
    do k = 5, 0, -1
      y(i) = y(i) * x(i) + coef(k)
    end do
  end do
  write (*, '(a, f14.8)') 'horner ', sum(y)

  do j = 1, 4
    tab(1, j) = j
    tab(2, j) = 10 * j
  end do
  y = 0
  ! Each iteration reads the table as the host left it and uses one element as scratch.
  !$acc parallel loop collapse(2) firstprivate(tab) copy(y)
  do i = 1, 40
    do j = 1, 50
      y((i - 1) * 50 + j) = tab(1, 1 + mod(j, 4)) + tab(2, 1 + mod(i, 4))
      tab(1, 5) = i * j
      y((i - 1) * 50 + j) = y((i - 1) * 50 + j) + tab(1, 5)
    end do
  end do
  write (*, '(a, f14.2)') 'collapsed firstprivate ', sum(y)

  allocate (s(50))
  d = 0
  !$acc parallel copyin(x) copy(d)
  !$acc loop gang private(s(1:50))
  do g = 1, 40
    !$acc loop vector
    do k = 1, 50
      s(k) = x((g - 1) * 50 + k) * g
    end do
    !$acc loop seq
    do k = 1, 50
      d(g) = d(g) + s(k)
    end do
  end do
  !$acc end parallel
  write (*, '(a, f14.6)') 'gang scratch ', sum(d)

  d = 0
  !$acc parallel copy(d) private(c)
  !$acc loop gang
  do g = 1, 40
    do k = 1, 10
      c(k) = g + k
    end do
    do k = 1, 10
      d(g) = d(g) + c(k) * c(11 - k)
    end do
  end do
  !$acc end parallel
  write (*, '(a, f14.2)') 'construct private ', sum(d)

  do k = 1, 10
    c(k) = 3 * k
  end do
  d = 0
  !$acc serial firstprivate(c) copy(d)
  do k = 1, 10
    c(k) = c(k) * k
    d(k) = c(k) + c(1)
  end do
  !$acc end serial
  write (*, '(a, f14.2)') 'serial firstprivate ', sum(d)
end program private_arrays
