! Routines that read their module's arrays in kernels: an explicit-shape table and an
! allocatable field with lower bounds other than 1, both under the module's declare create and
! updated on the devices once the host filled them, and a table without declare that the
! construct's own data clause maps. One routine reads the table through another (what a routine
! reads passes on to its callers), and a kernel calls it over a collapsed 2-D nest; a second
! kernel calls the table's routine directly and reduces; a third stores into a module array
! through a routine that calls the routine assigning it (what a routine writes passes on too).
module field_tables
  implicit none
  integer, parameter :: nt = 8
  real(8) :: weights(nt)
  real(8), allocatable :: field(:, :)
  !$acc declare create(weights, field)
  real(8) :: offsets(0:nt - 1)
  real(8), allocatable :: rows(:)
  !$acc declare create(rows)
contains
  subroutine store(i, v)
    !$acc routine seq
    integer, intent(in) :: i
    real(8), intent(in) :: v
    rows(i) = v
  end subroutine store

  subroutine store_weighted(i)
    !$acc routine seq
    integer, intent(in) :: i
    call store(i, weight(i + nt) * i)
  end subroutine store_weighted

  real(8) function weight(k)
    !$acc routine seq
    integer, intent(in) :: k
    weight = weights(mod(k, nt) + 1)
  end function weight

  real(8) function smoothed(i, j)
    !$acc routine seq
    integer, intent(in) :: i, j
    smoothed = weight(i + j) * (field(i - 1, j) + field(i + 1, j) + field(i, j - 2)) / 3 + &
               offsets(mod(j, nt))
  end function smoothed
end module field_tables

program main
  use field_tables
  implicit none
  integer, parameter :: n = 200, m = 150
  real(8) :: out(n, m), total, wsum
  integer :: i, j

  allocate(field(0:n + 1, -2:m))
  do i = 1, nt
    weights(i) = 0.5d0 + i * 0.125d0
    offsets(i - 1) = i
  end do
  do j = -2, m
    do i = 0, n + 1
      field(i, j) = mod(i * 7 + j * 3, 11) * 0.25d0
    end do
  end do
  !$acc update device(weights, field)

  !$acc parallel loop collapse(2) copyout(out) copyin(offsets)
  do j = 1, m
    do i = 1, n
      out(i, j) = smoothed(i, j)
    end do
  end do

  wsum = 0
  !$acc parallel loop reduction(+:wsum)
  do i = 1, 1000
    wsum = wsum + weight(i) * mod(i, 3)
  end do

  allocate(rows(-3:n))
  !$acc parallel loop
  do i = -3, n
    call store_weighted(i)
  end do
  !$acc update self(rows)

  total = 0
  do j = 1, m
    do i = 1, n
      total = total + out(i, j) * mod(i + j, 5)
    end do
  end do
  print '(a, f20.6)', 'weighted total ', total
  print '(a, 3f12.6)', 'corners ', out(1, 1), out(n, m), out(n / 2, m / 3)
  print '(a, f16.6)', 'weights read ', wsum
  print '(a, 2f16.6)', 'rows stored ', sum(rows), rows(-3)
  deallocate(field, rows)
end program main
