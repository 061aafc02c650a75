; Each address space of an nvptx64 kernel gets its dcucc space, op and size in
; the record call's info word: kind | space << 2 | op << 5 | log2(bytes) << 7,
; read-only 1 << 10 (runtime/dcucc_abi.h). Worked out by hand:
;   global ld.b32 0 | 0 | 0 | 2<<7 = 256      generic st.b32 (space 4) 16|32|256 = 304
;   shared ld.b32 4 | 256 = 260                const ld.b32 read-only 8|256|1024 = 1288
;   global atom.add.b32 64|256 = 320           local st.b64 (space 3) 12|32|384 = 428
;   global ld.v4.f32 (16 B) 4<<7 = 512; a 32-byte load of align 32 is two 16-byte pieces at +0 and +16.
;   generic ld.b32 of constant data, read-only: 16|256|1024 = 1296
; RUN-PASSES: dcucc-device
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 4
@coef = internal addrspace(4) global [4 x float] zeroinitializer, align 4

; The kernel's own parameter count, for launches through the module API.
; CHECK-DCUCC-DEVICE: @__dcucc_nparams_k = protected addrspace(1) constant i32 3
; CHECK-DCUCC-DEVICE-LABEL: define void @k(ptr addrspace(1) %g, ptr %p, i32 %i, ptr %dcucc.records)
; CHECK-DCUCC-DEVICE: call void @__dcucc_enter(ptr %dcucc.records)
; Its parameters are constant-bank loads at entry, from bank 0's window (0xfffff00000000000,
; parameters from 0x210 = -17592186043888): %g and %p 8 bytes (8|384|1024 = 1416), %i 4 bytes (1288).
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 -17592186043888, i32 1416, i32 16, i32 0, i32 0, i32 0)
; CHECK-DCUCC-DEVICE-NEXT: call void @__dcucc_mem(i64 -17592186043880, i32 1416, i32 32, i32 0, i32 0, i32 0)
; CHECK-DCUCC-DEVICE-NEXT: call void @__dcucc_mem(i64 -17592186043872, i32 1288, i32 48, i32 0, i32 0, i32 0)
define void @k(ptr addrspace(1) %g, ptr %p, i32 %i) {
entry:
  %priv = alloca [4 x double], align 8, addrspace(5)
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 256, i32 64,
  %a = load float, ptr addrspace(1) %g, align 4
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 ptrtoint (ptr addrspace(3) @tile to i64), i32 260, i32 80,
  %b = load float, ptr addrspace(3) @tile, align 4
; A constant word at a fixed address, also through a generic pointer, is an operand
; (c[3][0]), not a load: no record.
; CHECK-DCUCC-DEVICE-NOT: @__dcucc_mem(i64 ptrtoint (ptr addrspace(4) @coef
  %c = load float, ptr addrspace(4) @coef, align 4
; CHECK-DCUCC-DEVICE-NOT: @__dcucc_mem(i64 ptrtoint (ptr getelementptr
  %c1 = load float, ptr getelementptr (i8, ptr addrspacecast (ptr addrspace(4) @coef to ptr), i64 4), align 4
; An indexed one is a constant-cache load.
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 1288, i32 96,
  %ci = getelementptr float, ptr addrspace(4) @coef, i32 %i
  %d = load float, ptr addrspace(4) %ci, align 4
; Indexed through a generic pointer, it is still constant data: read-only.
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 1296, i32 112,
  %gi = getelementptr float, ptr addrspacecast (ptr addrspace(4) @coef to ptr), i32 %i
  %e = load float, ptr %gi, align 4
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 320, i32 128,
  %old = atomicrmw add ptr addrspace(1) %g, i32 1 monotonic
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 512, i32 144,
  %v = load <4 x float>, ptr addrspace(1) %g, align 16
; CHECK-DCUCC-DEVICE: [[W0:%.*]] = ptrtoint ptr addrspace(1) %g to i64
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 [[W0]], i32 512, i32 160,
; CHECK-DCUCC-DEVICE: [[W1:%.*]] = add i64 %{{.*}}, 16
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 [[W1]], i32 512, i32 176,
  %w = load <8 x float>, ptr addrspace(1) %g, align 32
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 428, i32 192,
  store double 1.0, ptr addrspace(5) %priv, align 8
; The store of %a waits for it.
; CHECK-DCUCC-DEVICE: call void @__dcucc_event(i32 2,
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 304, i32 208,
  store float %a, ptr %p, align 4
; A barrier's record comes right after the barrier; the kernel's last count before its return.
; CHECK-DCUCC-DEVICE: call void @llvm.nvvm.barrier0()
; CHECK-DCUCC-DEVICE-NOT: call
; CHECK-DCUCC-DEVICE: call void @__dcucc_event(i32 1, i32 224,
  call void @llvm.nvvm.barrier0()
; CHECK-DCUCC-DEVICE: call void @__dcucc_event(i32 3, i32 0,
; CHECK-DCUCC-DEVICE-NEXT: ret void
  ret void
}

; The device runtime is linked in and internal.
; CHECK-DCUCC-DEVICE: define internal void @__dcucc_mem(

declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
