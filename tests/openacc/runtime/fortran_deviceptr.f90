! Device memory a Fortran program allocates itself: acc_malloc's address associated with
! pointer arrays (c_f_pointer), filled and combined by kernels that take them through
! deviceptr clauses (the construct's own, and a data construct's around one), beside an array
! the construct copies; acc_memcpy_to_device and
! acc_memcpy_from_device move the data, acc_free releases it. It uses the openacc module, which
! plain gfortran has not, so it checks itself against the same computation on the host
! (tests/openacc/run.sh runs it on 1 to 3 devices).
program deviceptr_arrays
  use openacc
  use iso_c_binding
  implicit none
  integer, parameter :: n = 1000
  real(8), pointer :: a(:), b(:, :)
  real(8) :: w(n), h(n), m(10, n / 10), total, want_a(n), want_b(10, n / 10), want_total
  type(c_ptr) :: pa, pb
  integer :: i, j
  do i = 1, n
    w(i) = mod(i, 13) * 0.25d0
  end do
  pa = acc_malloc(int(n * 8, c_size_t))
  pb = acc_malloc(int(n * 8, c_size_t))
  call c_f_pointer(pa, a, [n])
  call c_f_pointer(pb, b, [10, n / 10])
  call acc_memcpy_to_device(pa, w, int(n * 8, c_size_t))
  !$acc parallel loop collapse(2) deviceptr(a, b)
  do j = 1, n / 10
    do i = 1, 10
      b(i, j) = a(i + 10 * (j - 1)) * j + i
    end do
  end do
  total = 0
  !$acc parallel loop deviceptr(a, b) copyin(w) reduction(+:total)
  do i = 1, n
    a(i) = a(i) + w(i)
    total = total + b(mod(i - 1, 10) + 1, (i - 1) / 10 + 1)
  end do
  !$acc data deviceptr(a, b)
  !$acc parallel loop
  do i = 1, n
    a(i) = a(i) * 3 - b(mod(i - 1, 10) + 1, (i - 1) / 10 + 1)
  end do
  !$acc end data
  call acc_memcpy_from_device(h, pa, int(n * 8, c_size_t))
  call acc_memcpy_from_device(m, pb, int(n * 8, c_size_t))
  call acc_free(pa)
  call acc_free(pb)
  do j = 1, n / 10
    do i = 1, 10
      want_b(i, j) = w(i + 10 * (j - 1)) * j + i
    end do
  end do
  do i = 1, n
    want_a(i) = 2 * w(i) * 3 - want_b(mod(i - 1, 10) + 1, (i - 1) / 10 + 1)
  end do
  want_total = sum(want_b)
  if (all(h == want_a) .and. all(m == want_b) .and. total == want_total) then
    write (*, '(a, f14.4)') 'deviceptr ok ', total
  else
    write (*, '(a, 3f14.4, a, 3f14.4)') 'deviceptr got ', sum(h), sum(m), total, ' want ', &
      sum(want_a), sum(want_b), want_total
  end if
end program deviceptr_arrays
