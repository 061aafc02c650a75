; Instruction counts the pass records before an access (pass/cost.h), worked
; out by hand: the store's record carries the count since the kernel's start.
;   fmul contract feeding only an fadd contract: one FMA, the fadd's 1;
;   fmul and fadd without contraction: 1 + 1;
;   a 32-bit unsigned division by a run-time value: 18, of them 3 slow, 2 middle;
;   uitofp: 1, slow; the last fadd: 1.
; Total 23 instructions, 4 slow, 2 middle. (AMDGPU does not fold the 32-bit
; multiply-add or the index extension: amdgcn's integer ops count one each.)
;   mul i32 + add i32 + zext to i64 + a GEP with a variable index: 1 + 1 + 1 + 1.
; RUN-PASSES: dcucc-device
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8"
target triple = "amdgcn-amd-amdhsa"

; CHECK-DCUCC-DEVICE-LABEL: define amdgpu_kernel void @counts(
define amdgpu_kernel void @counts(ptr addrspace(1) %p, float %a, float %b, float %c, i32 %x, i32 %y) {
entry:
  %m = fmul contract float %a, %b
  %s = fadd contract float %m, %c
  %m2 = fmul float %a, %c
  %s2 = fadd float %m2, %s
  %q = udiv i32 %x, %y
  %qf = uitofp i32 %q to float
  %r = fadd float %s2, %qf
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 23
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 4
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 2
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(
  store float %r, ptr addrspace(1) %p, align 4
  %i = mul i32 %x, %y
  %j = add i32 %i, %x
  %k = zext i32 %j to i64
  %q2 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %k
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 4
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 0
; CHECK-DCUCC-DEVICE: add i32 %{{.*}}, 0
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(
  store float %a, ptr addrspace(1) %q2, align 4
  ret void
}
