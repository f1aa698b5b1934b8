! Reductions with each Fortran operator on integer, real and logical variables, and into array
! elements; a serial construct that assigns a scalar; atomic updates and captures (max and min of
! lists too); IF constructs, SELECT CASE, BLOCK, CYCLE and intrinsics (mod, iand, ieor, sign, min
! with three arguments) inside kernels; array reductions (sum, maxval, dot_product, ...) of
! columns in a loop body, and along a dimension (dim) of a matrix and of a rank-3 array's middle
! dimension in a kernels construct.
program reductions
  implicit none
  integer, parameter :: n = 1000
  integer :: ibin(8), seen(n), klass(n), k, bins(0:3)
  real(4) :: peak(3)
  real(4) :: rbin(4)
  integer :: a(n), old(n), i, isum, iprod, imax, imin, iandr, iorr, ieorr, count, ticket, last
  real(4) :: r(n), rsum, rmax
  real(8) :: d(n), dmin
  real(8) :: grid(40, 25), colsum(25), colmax(25), coldot(25), rowmax(40), scaled(25)
  real(8) :: cube(6, 5, 4), across(6, 4)
  integer :: m
  integer :: lowest(40)
  logical :: big(25)
  integer :: positives(25)
  logical :: anybig(25)
  logical :: l(n), all_true, any_true, same, odd
  do i = 1, n
    a(i) = mod(i * 37, 101) + 1
    r(i) = real(mod(i, 13)) * 0.5
    d(i) = dble(mod(i * 11, 97)) - 40.0d0
    l(i) = mod(i, 7) /= 0
  end do
  isum = 0; iprod = 1; imax = -huge(1); imin = huge(1)
  iandr = not(0); iorr = 0; ieorr = 0
  rsum = 0; rmax = -1; dmin = 1.0d30
  all_true = .true.; any_true = .false.
  !$acc parallel loop reduction(+:isum) reduction(max:imax) reduction(min:imin) copyin(a)
  do i = 1, n
    isum = isum + a(i)
    imax = max(imax, a(i))
    imin = min(imin, a(i), 1000)
  end do
  !$acc parallel loop reduction(*:iprod) copyin(a)
  do i = 1, 20
    iprod = iprod * (mod(a(i), 3) + 1)
  end do
  !$acc parallel loop reduction(iand:iandr) reduction(ior:iorr) reduction(ieor:ieorr) copyin(a)
  do i = 1, n
    iandr = iand(iandr, a(i) + 256)
    iorr = ior(iorr, a(i))
    ieorr = ieor(ieorr, a(i))
  end do
  !$acc parallel loop reduction(+:rsum) reduction(max:rmax) reduction(min:dmin) copyin(r, d)
  do i = 1, n
    rsum = rsum + r(i)
    rmax = max(rmax, r(i))
    dmin = min(dmin, d(i))
  end do
  !$acc parallel loop reduction(.and.:all_true) reduction(.or.:any_true) copyin(l)
  do i = 1, n
    all_true = all_true .and. l(i)
    any_true = any_true .or. l(i)
  end do
  same = .true.; odd = .false.
  !$acc parallel loop reduction(.eqv.:same) reduction(.neqv.:odd) copyin(l)
  do i = 1, n - 3
    same = same .eqv. l(i)
    odd = l(i + 1) .neqv. odd
  end do
  count = 0
  ticket = 0
  old = -1
  !$acc parallel loop copyin(a) copy(count, ticket, old)
  do i = 1, n
    if (mod(a(i), 2) == 0) cycle
    if (a(i) > 50) then
      !$acc atomic update
      count = count + 1
    else if (a(i) < 10) then
      !$acc atomic
      count = count + 2
    else
      !$acc atomic capture
      old(i) = ticket
      ticket = ticket + 1
      !$acc end atomic
    end if
  end do
  ! Atomic max and min: an integer bin's largest with x first, a real bin's smallest of a list
  ! with x in the middle, and a captured max of the old value.
  ibin = -1; rbin = 1.0e9; seen = -1
  !$acc parallel loop copyin(a, r) copy(ibin, rbin, seen)
  do i = 1, n
    !$acc atomic update
    ibin(mod(a(i), 8) + 1) = max(ibin(mod(a(i), 8) + 1), a(i) * 3)
    !$acc atomic
    rbin(mod(i, 4) + 1) = min(r(i) + real(mod(i, 4)), rbin(mod(i, 4) + 1), real(a(i)) + 0.5)
    !$acc atomic capture
    seen(i) = ibin(1)
    ibin(1) = max(i / 10, ibin(1))
    !$acc end atomic
  end do
  ! SELECT CASE with values, a list, ranges open on either side and a default, in a BLOCK.
  klass = 0
  !$acc parallel loop copyin(a) copy(klass)
  do i = 1, n
    block
      select case (mod(a(i) * 7, 13) - 2)
      case (0)
        klass(i) = 1
      case (1, 3:4)
        klass(i) = 2
      case (:-1, 8:)
        klass(i) = 3
      case default
        klass(i) = 4
      end select
    end block
  end do
  ! Reductions into array elements: of an array a data region maps, and of one it does not.
  bins = 0
  peak = 1
  !$acc data copy(bins) copyin(a)
  do k = 0, 3
    !$acc parallel loop reduction(+:bins(k))
    do i = 1, n
      if (mod(a(i), 4) == k) bins(k) = bins(k) + 1
    end do
  end do
  !$acc end data
  do k = 1, 3
    !$acc parallel loop reduction(max:peak(k)) copyin(r)
    do i = 1, n
      peak(k) = max(peak(k), r(i) * k)
    end do
  end do
  ! Array reductions of columns inside a loop: sum, maxval, minval, dot_product, any, all,
  ! product, of integer and real sections with strides and of elemental expressions.
  do k = 1, 25
    do i = 1, 40
      grid(i, k) = mod(i * k, 17) - 8
    end do
  end do
  do k = 1, 4
    do i = 1, 6
      cube(i, :, k) = [(mod(i * 3 + k * 5 + m * 7, 11) - 5, m = 1, 5)]
    end do
  end do
  !$acc parallel loop copyin(grid, a) copyout(colsum, colmax, coldot, positives, anybig)
  do k = 1, 25
    colsum(k) = sum(grid(:, k)) + product(grid(1:3, k) + 9) + sum(grid(:, k), mask=grid(:, k) > 2)
    colmax(k) = maxval(grid(2:40:2, k)) - minval(abs(grid(:, k)))
    coldot(k) = dot_product(grid(:, k), grid(40:1:-1, k))
    positives(k) = minval(a(k:k + 10)) + maxval(a(2 * k:3 * k:k))
    if (any(grid(:, k) > 7)) then
      anybig(k) = all(grid(1:5, k) < 8)
    else
      anybig(k) = .false.
    end if
  end do
  !$acc kernels copyin(grid, cube) copyout(rowmax, lowest, scaled, big, across)
  rowmax(:) = maxval(grid, dim=2) + sum(grid(:, 1:5), dim=2)
  lowest = int(minval(grid, dim=2))
  big(:) = any(grid > 7, dim=1)
  scaled = sum(grid * 2, dim=1, mask=grid > 0) / maxval(sum(abs(grid), dim=1))
  across(:, :) = sum(cube, dim=2) * 10 + maxval(cube(:, 2:5, :), dim=2)
  !$acc end kernels
  !$acc serial copyin(a) copyout(last)
  last = a(n) * 2 + sign(3, -1)
  !$acc end serial
  write (*, '(a, 4i8)') 'int ', isum, iprod, imax, imin
  write (*, '(a, 3i8)') 'bits ', iandr, iorr, ieorr
  write (*, '(a, f10.2, f8.2, f8.2)') 'real ', rsum, rmax, dmin
  write (*, '(a, 4l2)') 'logical ', all_true, any_true, same, odd
  write (*, '(a, 4i8)') 'atomic, serial ', count, ticket, sum(old, mask=old >= 0), last
  write (*, '(a, 8i6, 4f8.2, l2)') 'atomic max, min ', ibin, rbin, all(seen >= -1 .and. seen < 303)
  write (*, '(a, 4i6)') 'select case ', (sum(merge(1, 0, klass == k)), k = 1, 4)
  write (*, '(a, 4i6, 3f8.2)') 'element reductions ', bins, peak
  write (*, '(a, 3f12.1, i6, i4)') 'array reductions ', sum(colsum), sum(colmax), sum(coldot), &
    sum(positives), sum(merge(1, 0, anybig))
  write (*, '(a, f12.1, 2i6, f12.4)') 'along a dimension ', sum(rowmax), sum(lowest), &
    sum(merge(1, 0, big)), sum(scaled)
  write (*, '(a, 4f9.1)') 'along a middle dimension ', across(1, :) + across(6, :) * 100
end program reductions
