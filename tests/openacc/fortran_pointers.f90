! Pointer arrays in data clauses and kernels, as allocatables are taken while they point at
! contiguous memory: a pointer allocated with its own bounds (enter data, present, a section
! updated back), a pointer to a whole allocatable target and one to a column of it (mapped
! inside the target's data region: present), and a module's pointer a kernel names.
module grids
  implicit none
  real(8), pointer :: level(:, :) => null()
end module grids

program pointers
  use grids
  implicit none
  integer, parameter :: n = 40, m = 30
  real(8), allocatable, target :: store(:, :)
  real(8), pointer :: p(:, :), whole(:, :), column(:)
  integer :: i, j
  allocate (p(-1:n - 2, 0:m - 1))
  do j = 0, m - 1
    do i = -1, n - 2
      p(i, j) = mod(i * 7 + j, 11)
    end do
  end do
  !$acc enter data copyin(p)
  !$acc parallel loop collapse(2) present(p)
  do j = 0, m - 1
    do i = -1, n - 2
      p(i, j) = p(i, j) * 2 + i
    end do
  end do
  !$acc update self(p(:, 5:9))
  write (*, '(a, f12.1)') 'updated columns ', sum(p(:, 5:9))
  !$acc exit data copyout(p)
  write (*, '(a, f12.1)') 'allocated pointer ', sum(p)

  allocate (store(n, m))
  store = 1
  whole => store
  column => store(:, 7)
  !$acc data copy(store)
  !$acc parallel loop present(whole)
  do j = 1, m
    do i = 1, n
      whole(i, j) = whole(i, j) + i * j
    end do
  end do
  !$acc parallel loop present(column)
  do i = 1, n
    column(i) = -column(i)
  end do
  !$acc end data
  write (*, '(a, f12.1)') 'target ', sum(store)

  allocate (level(0:n, m))
  level = 0.5d0
  !$acc parallel loop copy(level)
  do j = 1, m
    do i = 1, n
      level(i, j) = level(i - 1, j) + j
    end do
  end do
  write (*, '(a, f12.1)') 'module pointer ', sum(level)
  deallocate (p, store, level)
end program pointers
