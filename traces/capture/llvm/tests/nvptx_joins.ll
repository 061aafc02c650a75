; Adjacent accesses joined as ptxas joins them (pass/joins.h), info words as in
; nvptx_spaces.ll. ptxas places the shared objects a kernel uses in module
; order from a 16-aligned window base: @tile at 0, @flag at 1024, @late at
; 1028, so @tile's rows (64 bytes apart) are 16-aligned and @late only 4-aligned.
;   tile row +0..+12: one 16-byte LDS load, 4 | 4<<7 = 516;
;   row +20: 4-aligned, alone, 4 | 2<<7 = 260; +24, +28: 8-aligned, one 8-byte load 4 | 3<<7 = 388;
;   @late +0..+12: four 4-byte loads, 260 each;
;   a private array's four stores at +0..+12 (the frame is 8-aligned): two
;   8-byte generic stores (the alloca is generic until the backend lowers it),
;   16 | 32 | 3<<7 = 432, and no 4-byte one (304).
; The pass records; it does not change the accesses themselves.
; RUN-PASSES: dcucc-device
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [16 x [16 x float]] undef, align 4
@flag = internal addrspace(3) global float undef, align 4
@late = internal addrspace(3) global [4 x float] undef, align 4

; CHECK-DCUCC-DEVICE-LABEL: define void @rows(
define void @rows(ptr addrspace(1) %out, i32 %ty) {
entry:
  %priv = alloca [4 x float], align 4
  %t = zext i32 %ty to i64
  %r0 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %t, i64 0
  %r1 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %t, i64 1
  %r2 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %t, i64 2
  %r3 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %t, i64 3
  %r5 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %t, i64 5
  %r6 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %t, i64 6
  %r7 = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %t, i64 7
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 516,
; CHECK-DCUCC-DEVICE-NOT: call void @__dcucc_mem(i64 %{{.*}}, i32 516,
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 260,
; CHECK-DCUCC-DEVICE-NEXT: load float, ptr addrspace(3) %r5
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 388,
; CHECK-DCUCC-DEVICE-NEXT: load float, ptr addrspace(3) %r6
; CHECK-DCUCC-DEVICE-NOT: i32 388,
  %a0 = load float, ptr addrspace(3) %r0, align 4
  %a1 = load float, ptr addrspace(3) %r1, align 4
  %a2 = load float, ptr addrspace(3) %r2, align 4
  %a3 = load float, ptr addrspace(3) %r3, align 4
  %a5 = load float, ptr addrspace(3) %r5, align 4
  %a6 = load float, ptr addrspace(3) %r6, align 4
  %a7 = load float, ptr addrspace(3) %r7, align 4
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 ptrtoint (ptr addrspace(3) @late to i64), i32 260,
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @late, i64 4) to i64), i32 260,
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @late, i64 8) to i64), i32 260,
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 ptrtoint (ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @late, i64 12) to i64), i32 260,
  %l0 = load float, ptr addrspace(3) @late, align 4
  %l1 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @late, i64 4), align 4
  %l2 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @late, i64 8), align 4
  %l3 = load float, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @late, i64 12), align 4
  %f = load float, ptr addrspace(3) @flag, align 4
  %s0 = fadd float %a0, %a1
  %s1 = fadd float %a2, %a3
  %s2 = fadd float %a5, %a6
  %s3 = fadd float %a7, %l0
  %s4 = fadd float %l1, %l2
  %s5 = fadd float %l3, %f
  %s6 = fadd float %s0, %s1
  %s7 = fadd float %s2, %s3
  %s8 = fadd float %s4, %s5
  %s9 = fadd float %s6, %s7
  %s = fadd float %s8, %s9
; CHECK-DCUCC-DEVICE-NOT: i32 304,
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 432,
; CHECK-DCUCC-DEVICE-NOT: i32 304,
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 432,
; CHECK-DCUCC-DEVICE-NOT: i32 304,
  %p1 = getelementptr inbounds float, ptr %priv, i64 1
  %p2 = getelementptr inbounds float, ptr %priv, i64 2
  %p3 = getelementptr inbounds float, ptr %priv, i64 3
  store float %s, ptr %priv, align 4
  store float %s0, ptr %p1, align 4
  store float %s1, ptr %p2, align 4
  store float %s2, ptr %p3, align 4
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 272,
  %pi = getelementptr inbounds float, ptr %priv, i32 %ty
  %v = load float, ptr %pi, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @rows, !"kernel", i32 1}
