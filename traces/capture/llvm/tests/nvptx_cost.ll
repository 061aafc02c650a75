; NVIDIA's instruction selection folds more than AMDGPU's (pass/cost.cpp): a
; 32-bit multiply feeding only an add is an IMAD, a shift by a constant feeding
; only an add is a LEA, and a 32-bit index extended for an address is taken by
; IMAD.WIDE: mul + add + zext + GEP count 0 + 1 + 0 + 1 = 2, shl + add 0 + 1.
; A 64-bit signed remainder by a run-time value: the bypass test and the 32-bit
; sequence, 21, of them 3 slow and 2 middle. The launch reads of the
; parameters are records of their own and count nothing. The store's record carries
; 2 + 1 + 21 = 24, 3 slow, 2 middle.
; RUN-PASSES: dcucc-device
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-DCUCC-DEVICE-LABEL: define void @counts(
define void @counts(ptr addrspace(1) %p, i32 %x, i32 %y, i64 %w, i64 %d) {
entry:
  %i = mul i32 %x, %y
  %j = add i32 %i, %x
  %k = zext i32 %j to i64
  %q = getelementptr inbounds float, ptr addrspace(1) %p, i64 %k
  %sh = shl i32 %x, 2
  %o = add i32 %sh, %y
  %of = sitofp i32 %o to float
  %r = srem i64 %w, %d
  %rf = sitofp i64 %r to float
  %v = fadd float %of, %rf
; 24 + the two conversions (1 each, slow) + the fadd: 27, 5 slow, 2 middle.
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 27
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 5
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 2
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(
  store float %v, ptr addrspace(1) %q, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @counts, !"kernel", i32 1}
