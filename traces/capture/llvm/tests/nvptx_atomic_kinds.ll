; An atomic's site says what it computes on (pass/meta.h: flags 2 integer, 4 floating point): fadd and
; fmax on floats, add and cmpxchg on integers, and an exchange of a float moves bits as an integer one
; does; an atomic intrinsic by the type it returns (a scoped float add, an integer one). The kernel's one
; parameter, a constant-bank load at entry, is read-only (flag 1) at PC 16; the atomics follow at 32 to 128.
; RUN-PASSES: dcucc-device
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-META: site 16 1
; CHECK-META-NEXT: site 32 4
; CHECK-META-NEXT: site 48 4
; CHECK-META-NEXT: site 64 2
; CHECK-META-NEXT: site 80 2
; CHECK-META-NEXT: site 96 2
; CHECK-META-NEXT: site 112 4
; CHECK-META-NEXT: site 128 2
; CHECK-DCUCC-DEVICE-LABEL: define void @k(ptr addrspace(1) %g, ptr %dcucc.records)
define void @k(ptr addrspace(1) %g) {
entry:
  %f = atomicrmw fadd ptr addrspace(1) %g, float 1.0 monotonic
  %m = atomicrmw fmax ptr addrspace(1) %g, float 2.0 monotonic
  %i = atomicrmw add ptr addrspace(1) %g, i32 1 monotonic
  %x = atomicrmw xchg ptr addrspace(1) %g, float 3.0 monotonic
  %c = cmpxchg ptr addrspace(1) %g, i32 0, i32 1 monotonic monotonic
  %sf = call float @llvm.nvvm.atomic.add.gen.f.cta.f32.p1(ptr addrspace(1) %g, float 1.0)
  %si = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p1(ptr addrspace(1) %g, i32 1)
  ret void
}

declare float @llvm.nvvm.atomic.add.gen.f.cta.f32.p1(ptr addrspace(1), float)
declare i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p1(ptr addrspace(1), i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
