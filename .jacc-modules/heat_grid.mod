!mod$ v1 sum:49d6bef57ebc688b
module heat_grid
integer(4),parameter::dp=8_4
intrinsic::kind
real(8),allocatable::t(:,:)
real(8),allocatable::tnew(:,:)
integer(4)::nx
integer(4)::ny
end
