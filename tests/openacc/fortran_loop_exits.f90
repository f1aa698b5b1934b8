! Leaving loops inside compute constructs: a search that exits two loops at once when it finds
! its value, a CYCLE of the outer loop from the inner one (skipping the rest of a row), a DO
! without control left by an EXIT, EXIT and CYCLE of the innermost loop by name, and a CYCLE of
! the parallel loop itself from a loop inside it. Compared
! with gfortran's results on every device configuration.
program fortran_loop_exits
  implicit none
  integer, parameter :: n = 64, m = 24
  integer :: grid(m, m), found(n), rows(n), steps(n), sums(n)
  integer :: i, j, k, s, t
  do j = 1, m
    do k = 1, m
      grid(k, j) = mod(k * 7 + j * 13, 97)
    end do
  end do
  !$acc parallel loop copyin(grid) copyout(found, rows, steps, sums) private(i, j, k, s, t)
  each: do i = 1, n
    ! The first column, then row, holding the value i, or -1: both loops end where it is.
    found(i) = -1
    search: do j = 1, m
      do k = 1, m
        if (grid(k, j) == i) then
          found(i) = 100 * j + k
          exit search
        end if
      end do
    end do search
    ! Per column, the elements until the first one above i (the rest of the column skipped).
    rows(i) = 0
    columns: do j = 1, m
      do k = 1, m
        if (grid(k, j) > i) cycle columns
        rows(i) = rows(i) + 1
      end do
    end do columns
    ! Collatz steps of i, by a DO without control.
    t = i
    steps(i) = 0
    do
      if (t == 1) exit
      if (mod(t, 2) == 0) then
        t = t / 2
      else
        t = 3 * t + 1
      end if
      steps(i) = steps(i) + 1
    end do
    ! Odd multiples of 3 below i*10, summed, leaving the loop by its own name.
    s = 0
    odd: do k = 1, 10 * i
      if (mod(k, 2) == 0) cycle odd
      if (k > 5 * i) exit odd
      if (mod(k, 3) == 0) s = s + k
    end do odd
    sums(i) = s
    ! The last statement skipped, from inside a loop, for odd i above 40: CYCLE of the loop the
    ! devices share.
    do j = 1, 3
      if (i > 40 .and. mod(i, 2) == 1 .and. j == 2) cycle each
    end do
    sums(i) = sums(i) + 1000
  end do each
  write (*, '(8i7)') found
  write (*, '(8i7)') rows
  write (*, '(8i7)') steps
  write (*, '(8i7)') sums
end program
