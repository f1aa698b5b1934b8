C     Fixed form: directives with the !$acc and c$acc sentinels in column 1, a directive
C     continued by !$acc&, statements continued in column 6, labelled DO loops ending on
C     CONTINUE, a kernels construct closed by c$acc end kernels.
      program fixed
      implicit none
      integer n, i, j
      parameter (n = 100)
      double precision a(n), b(n), c(8, n), s
      do 10 i = 1, n
         b(i) = i * 0.5d0
   10 continue
      s = 0
!$acc parallel loop copyin(b)
!$acc& copyout(a) reduction(+:s)
      do 20 i = 1, n
         a(i) = b(i) * 2 +
     &          1
         s = s + a(i)
   20 continue
c$acc kernels copy(a)
      a(1) = a(1) + 1
c$acc end kernels
C$ACC PARALLEL LOOP COPYOUT(C) COPYIN(A)
      DO 40 J = 1, N
         DO 30 I = 1, 8
            C(I, J) = A(J) * I
   30    CONTINUE
   40 CONTINUE
      write (*, '(a, 4f12.3)') 'fixed ', s, a(1), c(8, n), c(1, 1)
      end
