! Fortran's elemental intrinsics inside compute constructs: rounding and remainders (modulo takes
! the divisor's sign), merge, the bit intrinsics at their edges (shifts by 0, by the width and
! back, negative values; bit counts of zero and of every kind), integer powers with exponents known only as the program runs (negative
! ones too), the model numbers' parts and the special functions, for kinds 4 and 8. Compared
! with gfortran's own results on every device configuration.
program fortran_intrinsics
  implicit none
  integer, parameter :: n = 12
  integer :: i, m(n), p(n), bits(n), powers(n), counts(n)
  integer(8) :: big(n), shifted(n)
  integer(1) :: tiny(n)
  real(8) :: x(n), r(n), special(n)
  real(4) :: y(n), s(n)
  do i = 1, n
    m(i) = 7 * i - 45
    p(i) = merge(3, -4, mod(i, 2) == 0)
    x(i) = 0.85d0 * i - 5.3d0
    y(i) = 0.6 * i - 3.1
  end do
  !$acc parallel loop copyin(m, p, x, y) copyout(r, s, bits, powers, big, shifted, tiny, special) &
  !$acc copyout(counts)
  do i = 1, n
    r(i) = modulo(x(i), 1.5d0) + modulo(x(i), -2.25d0) + dim(x(i), 1d0) + aint(x(i)) * 10 &
         + anint(x(i)) * 100 + merge(x(i), -x(i), m(i) > 0) + dprod(y(i), 2.0)
    s(i) = modulo(y(i), 0.7) + aint(y(i)) + anint(y(i)) + dim(y(i), -1.0) + atan(y(i), 2.0) &
         + hypot(y(i), 1.0) + exponent(y(i)) + fraction(y(i)) + scale(y(i), 2)
    bits(i) = modulo(m(i), p(i)) * 1000 + dim(m(i), 3) + merge(m(i), p(i), x(i) < 0)
    powers(i) = p(i)**(i - 3) + (-1)**i + 2**(i + 20) + 0**(i - 1) + m(i)**2
    big(i) = ishft(int(m(i), 8), i - 6) + ishft(-1_8, -60) + shifta(int(m(i), 8), i) &
           + ibits(int(m(i), 8), i, 7) + ibset(0_8, 62) / 2_8**40 + ibclr(-1_8, i) &
           + not(int(m(i), 8)) + shiftl(3_8, i * 5) / 1024 + shiftr(-1_8, 64 - i)
    shifted(i) = ishft(m(i), i - 6) + ishft(m(i), 32) + ishft(m(i), -32) + shiftr(m(i), 31) &
               + merge(1, 0, btest(m(i), i)) * 7 + ibits(m(i), 28, 4) + ishft(7, i * 3)
    tiny(i) = ishft(int(m(i), 1), 2) + not(int(i, 1)) + ibset(int(0, 1), 7)
    counts(i) = popcnt(m(i)) + 100 * leadz(m(i)) + 10000 * trailz(int(m(i), 8)) &
              + 1000000 * poppar(int(m(i), 1)) + 10000000 * leadz(int(i - 1, 1))
    special(i) = erf(x(i)) + erfc(x(i)) * 2 + log_gamma(abs(x(i)) + 0.5d0) &
               + gamma(abs(x(i)) / 2 + 0.5d0) + asinh(x(i)) + acosh(abs(x(i)) + 1) &
               + atanh(x(i) / 10) + exponent(x(i)) + fraction(x(i)) + scale(x(i), -3)
  end do
  write (*, '(a)') 'reals'
  write (*, '(4f16.9)') r
  write (*, '(4f14.5)') s
  write (*, '(4f18.11)') special
  write (*, '(a)') 'integers'
  write (*, '(6i12)') bits
  write (*, '(4i14)') powers
  write (*, '(3i22)') big
  write (*, '(3i22)') shifted
  write (*, '(12i5)') tiny
  write (*, '(6i12)') counts
end program
