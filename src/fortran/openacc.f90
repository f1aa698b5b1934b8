! The openacc module of OpenACC 3.3's Fortran API (chapter 3) for programs jaccc compiles: the
! constants, and the routines bound to libjacc's C API (include/jacc/openacc.h) through bind(C);
! the data routines take any array through a descriptor (OpenACCFortran.c reads it), and the
! forms with a length in bytes (acc_copyin(a(1), len)) as an optional argument: two specifics
! of one generic could not tell an assumed-type array from its first element.
module openacc
  use iso_c_binding
  implicit none

  integer, parameter :: openacc_version = 202211
  integer, parameter :: acc_device_kind = c_int
  integer, parameter :: acc_device_property_kind = c_int
  integer, parameter :: acc_handle_kind = c_int
  integer(acc_device_kind), parameter :: acc_device_current = -1
  integer(acc_device_kind), parameter :: acc_device_none = 0
  integer(acc_device_kind), parameter :: acc_device_default = 1
  integer(acc_device_kind), parameter :: acc_device_host = 2
  integer(acc_device_kind), parameter :: acc_device_not_host = 3
  integer(acc_device_kind), parameter :: acc_device_nvidia = 4
  integer(acc_device_kind), parameter :: acc_device_radeon = 5
  integer(acc_device_property_kind), parameter :: acc_property_memory = 1
  integer(acc_device_property_kind), parameter :: acc_property_free_memory = 2
  integer(acc_device_property_kind), parameter :: acc_property_shared_memory_support = 3
  integer(acc_device_property_kind), parameter :: acc_property_name = 65537
  integer(acc_device_property_kind), parameter :: acc_property_vendor = 65538
  integer(acc_device_property_kind), parameter :: acc_property_driver = 65539
  integer(acc_handle_kind), parameter :: acc_async_noval = -1
  integer(acc_handle_kind), parameter :: acc_async_sync = -2
  integer(acc_handle_kind), parameter :: acc_async_default = -3

  interface
    integer(c_int) function acc_get_num_devices(dev_type) bind(C, name="acc_get_num_devices")
      import :: c_int, acc_device_kind
      integer(acc_device_kind), value :: dev_type
    end function
    subroutine acc_set_device_type(dev_type) bind(C, name="acc_set_device_type")
      import :: acc_device_kind
      integer(acc_device_kind), value :: dev_type
    end subroutine
    integer(acc_device_kind) function acc_get_device_type() bind(C, name="acc_get_device_type")
      import :: acc_device_kind
    end function
    subroutine acc_set_device_num(dev_num, dev_type) bind(C, name="acc_set_device_num")
      import :: c_int, acc_device_kind
      integer(c_int), value :: dev_num
      integer(acc_device_kind), value :: dev_type
    end subroutine
    integer(c_int) function acc_get_device_num(dev_type) bind(C, name="acc_get_device_num")
      import :: c_int, acc_device_kind
      integer(acc_device_kind), value :: dev_type
    end function
    integer(c_size_t) function acc_get_property(dev_num, dev_type, property) &
        bind(C, name="acc_get_property")
      import :: c_int, c_size_t, acc_device_kind, acc_device_property_kind
      integer(c_int), value :: dev_num
      integer(acc_device_kind), value :: dev_type
      integer(acc_device_property_kind), value :: property
    end function
    subroutine acc_init(dev_type) bind(C, name="acc_init")
      import :: acc_device_kind
      integer(acc_device_kind), value :: dev_type
    end subroutine
    subroutine acc_init_device(dev_num, dev_type) bind(C, name="acc_init_device")
      import :: c_int, acc_device_kind
      integer(c_int), value :: dev_num
      integer(acc_device_kind), value :: dev_type
    end subroutine
    subroutine acc_shutdown(dev_type) bind(C, name="acc_shutdown")
      import :: acc_device_kind
      integer(acc_device_kind), value :: dev_type
    end subroutine
    subroutine acc_shutdown_device(dev_num, dev_type) bind(C, name="acc_shutdown_device")
      import :: c_int, acc_device_kind
      integer(c_int), value :: dev_num
      integer(acc_device_kind), value :: dev_type
    end subroutine
    subroutine acc_set_default_async(async_arg) bind(C, name="acc_set_default_async")
      import :: c_int
      integer(c_int), value :: async_arg
    end subroutine
    integer(c_int) function acc_get_default_async() bind(C, name="acc_get_default_async")
      import :: c_int
    end function
    subroutine acc_wait(wait_arg) bind(C, name="acc_wait")
      import :: c_int
      integer(c_int), value :: wait_arg
    end subroutine
    subroutine acc_async_wait(wait_arg) bind(C, name="acc_async_wait")
      import :: c_int
      integer(c_int), value :: wait_arg
    end subroutine
    subroutine acc_wait_async(wait_arg, async_arg) bind(C, name="acc_wait_async")
      import :: c_int
      integer(c_int), value :: wait_arg, async_arg
    end subroutine
    subroutine acc_wait_all() bind(C, name="acc_wait_all")
    end subroutine
    subroutine acc_async_wait_all() bind(C, name="acc_async_wait_all")
    end subroutine
    subroutine acc_wait_all_async(async_arg) bind(C, name="acc_wait_all_async")
      import :: c_int
      integer(c_int), value :: async_arg
    end subroutine
    type(c_ptr) function acc_malloc(bytes) bind(C, name="acc_malloc")
      import :: c_ptr, c_size_t
      integer(c_size_t), value :: bytes
    end function
    subroutine acc_free(data_dev) bind(C, name="acc_free")
      import :: c_ptr
      type(c_ptr), value :: data_dev
    end subroutine
    type(c_ptr) function acc_hostptr(data_dev) bind(C, name="acc_hostptr")
      import :: c_ptr
      type(c_ptr), value :: data_dev
    end function
    subroutine acc_memcpy_to_device(data_dev_dest, data_host_src, bytes) &
        bind(C, name="acc_memcpy_to_device")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: data_dev_dest
      type(*), dimension(*) :: data_host_src
      integer(c_size_t), value :: bytes
    end subroutine
    subroutine acc_memcpy_from_device(data_host_dest, data_dev_src, bytes) &
        bind(C, name="acc_memcpy_from_device")
      import :: c_ptr, c_size_t
      type(*), dimension(*) :: data_host_dest
      type(c_ptr), value :: data_dev_src
      integer(c_size_t), value :: bytes
    end subroutine
    subroutine acc_memcpy_device(data_dev_dest, data_dev_src, bytes) &
        bind(C, name="acc_memcpy_device")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: data_dev_dest, data_dev_src
      integer(c_size_t), value :: bytes
    end subroutine
    integer(c_int) function jacc_f_on_device(dev_type) bind(C, name="acc_on_device")
      import :: c_int, acc_device_kind
      integer(acc_device_kind), value :: dev_type
    end function
    integer(c_int) function jacc_f_async_test(wait_arg) bind(C, name="acc_async_test")
      import :: c_int
      integer(c_int), value :: wait_arg
    end function
    integer(c_int) function jacc_f_async_test_all() bind(C, name="acc_async_test_all")
      import :: c_int
    end function
    type(c_ptr) function jacc_f_property_string(dev_num, dev_type, property) &
        bind(C, name="acc_get_property_string")
      import :: c_int, c_ptr, acc_device_kind, acc_device_property_kind
      integer(c_int), value :: dev_num
      integer(acc_device_kind), value :: dev_type
      integer(acc_device_property_kind), value :: property
    end function
    integer(c_int) function jacc_f_is_present(a, bytes) bind(C, name="jacc_f_is_present")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end function
  end interface
  interface acc_copyin
    subroutine jacc_f_copyin(a, bytes) bind(C, name="jacc_f_copyin")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_create
    subroutine jacc_f_create(a, bytes) bind(C, name="jacc_f_create")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_copyout
    subroutine jacc_f_copyout(a, bytes) bind(C, name="jacc_f_copyout")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_copyout_finalize
    subroutine jacc_f_copyout_finalize(a, bytes) bind(C, name="jacc_f_copyout_finalize")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_delete
    subroutine jacc_f_delete(a, bytes) bind(C, name="jacc_f_delete")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_delete_finalize
    subroutine jacc_f_delete_finalize(a, bytes) bind(C, name="jacc_f_delete_finalize")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_update_device
    subroutine jacc_f_update_device(a, bytes) bind(C, name="jacc_f_update_device")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_update_self
    subroutine jacc_f_update_self(a, bytes) bind(C, name="jacc_f_update_self")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_present_or_copyin
    subroutine jacc_f_present_or_copyin(a, bytes) bind(C, name="jacc_f_present_or_copyin")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_pcopyin
    subroutine jacc_f_pcopyin(a, bytes) bind(C, name="jacc_f_pcopyin")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_present_or_create
    subroutine jacc_f_present_or_create(a, bytes) bind(C, name="jacc_f_present_or_create")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_pcreate
    subroutine jacc_f_pcreate(a, bytes) bind(C, name="jacc_f_pcreate")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int), optional :: bytes
    end subroutine
  end interface
  interface acc_copyin_async
    subroutine jacc_f_copyin_async(a, bytes_or_async, async_arg) bind(C, name="jacc_f_copyin_async")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int) :: bytes_or_async
      integer(c_int), optional :: async_arg
    end subroutine
  end interface
  interface acc_create_async
    subroutine jacc_f_create_async(a, bytes_or_async, async_arg) bind(C, name="jacc_f_create_async")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int) :: bytes_or_async
      integer(c_int), optional :: async_arg
    end subroutine
  end interface
  interface acc_copyout_async
    subroutine jacc_f_copyout_async(a, bytes_or_async, async_arg) bind(C, name="jacc_f_copyout_async")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int) :: bytes_or_async
      integer(c_int), optional :: async_arg
    end subroutine
  end interface
  interface acc_copyout_finalize_async
    subroutine jacc_f_copyout_finalize_async(a, bytes_or_async, async_arg) bind(C, name="jacc_f_copyout_finalize_async")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int) :: bytes_or_async
      integer(c_int), optional :: async_arg
    end subroutine
  end interface
  interface acc_delete_async
    subroutine jacc_f_delete_async(a, bytes_or_async, async_arg) bind(C, name="jacc_f_delete_async")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int) :: bytes_or_async
      integer(c_int), optional :: async_arg
    end subroutine
  end interface
  interface acc_delete_finalize_async
    subroutine jacc_f_delete_finalize_async(a, bytes_or_async, async_arg) bind(C, name="jacc_f_delete_finalize_async")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int) :: bytes_or_async
      integer(c_int), optional :: async_arg
    end subroutine
  end interface
  interface acc_update_device_async
    subroutine jacc_f_update_device_async(a, bytes_or_async, async_arg) bind(C, name="jacc_f_update_device_async")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int) :: bytes_or_async
      integer(c_int), optional :: async_arg
    end subroutine
  end interface
  interface acc_update_self_async
    subroutine jacc_f_update_self_async(a, bytes_or_async, async_arg) bind(C, name="jacc_f_update_self_async")
      import :: c_int
      type(*), dimension(..) :: a
      integer(c_int) :: bytes_or_async
      integer(c_int), optional :: async_arg
    end subroutine
  end interface
  interface acc_deviceptr
    type(c_ptr) function jacc_f_deviceptr(a) bind(C, name="jacc_f_deviceptr")
      import :: c_ptr
      type(*), dimension(..) :: a
    end function
  end interface
  interface acc_map_data
    subroutine jacc_f_map_data(a, data_dev, bytes) bind(C, name="jacc_f_map_data")
      import :: c_ptr, c_size_t
      type(*), dimension(..) :: a
      type(c_ptr), value :: data_dev
      integer(c_size_t), value :: bytes
    end subroutine
  end interface
  interface acc_unmap_data
    subroutine jacc_f_unmap_data(a) bind(C, name="jacc_f_unmap_data")
      type(*), dimension(..) :: a
    end subroutine
  end interface

contains

  logical function acc_on_device(dev_type)
    integer(acc_device_kind) :: dev_type
    acc_on_device = jacc_f_on_device(dev_type) /= 0
  end function

  logical function acc_async_test(wait_arg)
    integer :: wait_arg
    acc_async_test = jacc_f_async_test(wait_arg) /= 0
  end function

  logical function acc_async_test_all()
    acc_async_test_all = jacc_f_async_test_all() /= 0
  end function

  logical function acc_is_present(a, bytes)
    type(*), dimension(..) :: a
    integer, optional :: bytes
    acc_is_present = jacc_f_is_present(a, bytes) /= 0
  end function

  subroutine acc_get_property_string(dev_num, dev_type, property, string)
    integer :: dev_num
    integer(acc_device_kind) :: dev_type
    integer(acc_device_property_kind) :: property
    character(*) :: string
    character(kind=c_char), pointer :: text(:)
    type(c_ptr) :: p
    integer :: i
    string = ' '
    p = jacc_f_property_string(dev_num, dev_type, property)
    if (.not. c_associated(p)) return
    call c_f_pointer(p, text, [len(string) + 1])
    do i = 1, len(string)
      if (text(i) == c_null_char) exit
      string(i:i) = text(i)
    end do
  end subroutine
end module openacc
