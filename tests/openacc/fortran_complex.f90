! Complex data in kernels: complex(8) and complex(4) arrays and scalars, arithmetic and powers,
! cmplx, real, aimag, conjg, abs, exp, a complex sum reduction, a dot_product of complex sections
! (its first argument conjugated), a routine taking and returning complex values, and complex
! parts as designators (z%re, z%im, assigned and read, of whole arrays too).
module waves
  implicit none
contains
  complex(8) function rotate(z, k)
    !$acc routine seq
    complex(8), intent(in) :: z
    integer, intent(in) :: k
    rotate = z * cmplx(0d0, 1d0, kind=8)**k
  end function rotate
end module waves

program complex_data
  use waves
  implicit none
  integer, parameter :: n = 256
  complex(8) :: z(n), w(n), total
  complex(4) :: f(n)
  real(8) :: mag(n), inner(n)
  integer :: i
  do i = 1, n
    z(i) = cmplx(mod(i, 7) * 0.25d0, mod(i, 5) * 0.5d0, kind=8)
  end do
  total = (0d0, 0d0)
  !$acc parallel loop copyin(z) copyout(w, f, mag) reduction(+:total)
  do i = 1, n
    w(i) = rotate(conjg(z(i)), mod(i, 4)) + (1.5d0, -0.25d0)
    f(i) = cmplx(real(z(i)), aimag(z(i)) * 2, kind=4)
    mag(i) = abs(z(i))**2 + real(exp(cmplx(0d0, 0d0, kind=8)))
    total = total + z(i) * 2
  end do
  !$acc parallel loop copyin(w, z) copyout(inner)
  do i = 1, n - 1
    inner(i) = real(dot_product(w(i:i + 1), z(i:i + 1))) + aimag(w(i)**2)
  end do
  inner(n) = 0
  !$acc parallel loop copy(w)
  do i = 1, n
    w(i)%im = w(i)%re - w(i)%im
    w(i)%re = i * 0.5d0
  end do
  !$acc kernels copy(f)
  f(:)%re = f(:)%im + 1
  !$acc end kernels
  write (*, '(a, 2f12.4)') 'total ', total
  write (*, '(a, 2f12.4)') 'w ', sum(w)
  write (*, '(a, 2f12.4)') 'f ', sum(f)
  write (*, '(a, 2f12.4)') 'mag, inner ', sum(mag), sum(inner)
end program complex_data
