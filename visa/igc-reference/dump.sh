#!/bin/sh
# Regenerates IGC's own kernels for the OpenCL C programs beside this script, the
# reference for the skeleton of our kernels (visa/IGC-SKELETON.md).
#
#   visa/igc-reference/dump.sh [OUT_DIR]
#
# For every program and device it runs
#   IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=OUT_DIR/<device>/<program> \
#       ocloc compile -q -file <program>.cl -device <device> [-revision_id R]
# (ocloc: Debian intel-opencl-icd; the dumps are IGC's .visaasm, its vISA, and .asm,
# what its finalizer made of it, with `//.full_options` naming the finalizer options),
# then writes the skeleton of each kernel, the lines that are not the program's own
# work, to skeleton/<device>.txt beside this script (committed; the dumps are not):
#   options:   the finalizer options IGC passed (`//.full_options`)
#   vISA:      the `.input`, `.kernel_attr` and `.function` lines
#   prolog:    the payload loads the finalizer put before the kernel's first
#              instruction (DG2 and PVC: `per_thread_prolog`, then the comment
#              `// cross_thread_prolog:`, where the cross-thread loads start)
#   cr0:       the float-mode instruction
#   epilog:    the fences, their commit and the end-of-thread send
#
# DEVICES overrides the devices (default: bdw skl icllp tgllp dg2 pvc; ocloc 22.43 knows
# no MTL). Each device is compiled at the stepping a production part has (DG2: C0,
# revision 8; PVC: revision 5, the first past the XT A0 workarounds; ICL-LP: B0,
# revision 3), because the workarounds IGC passes to its finalizer depend on it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${TMPDIR:-/tmp}/igc-reference}
devices=${DEVICES:-"bdw skl icllp tgllp dg2 pvc"}
command -v ocloc >/dev/null || { echo "dump.sh: ocloc not found (Debian intel-opencl-icd)" >&2; exit 1; }

revision() {
    case $1 in
        dg2) echo 8 ;;
        pvc) echo 5 ;;
        icllp) echo 3 ;;
        *) echo "" ;;
    esac
}

# The skeleton of one kernel: its .visaasm ($1) and .asm ($2).
skeleton() {
    sed -n 's/^\/\/\.full_options "\(.*\)"$/options: \1/p' "$2"
    grep -E '^\.(input|kernel_attr|function) ' "$1" | sed 's/[[:space:]]*$//; s/^/vISA:    /'
    # The finalizer's prolog: from its label to the kernel's first instruction (the
    # line whose comment ends in `$1`, vISA instruction 1, the float mode).
    awk '/^per_thread_prolog:/ { on = 1 }
         on && /\/\/ \$1[[:space:]]*$/ { exit }
         on && /^\/\/ cross_thread_prolog:/ { print "prolog:  " $0 }
         on && !/^[[:space:]]*$/ && !/^\/\// { sub(/[[:space:]]+$/, ""); print "prolog:  " $0 }' "$2"
    grep -E 'cr0\.0<1>' "$2" | sed 's/[[:space:]]*$//; s/^/cr0:     /'
    # The end of thread and the fences and commits right before it.
    awk '!/^[[:space:]]*$/ && !/^\/\// && !/^[A-Za-z_0-9]+:/ { sub(/[[:space:]]+$/, ""); code[n++] = $0 }
         END {
             for (e = 0; e < n; e++) {
                 if (code[e] !~ /EOT/) continue
                 s = e
                 while (s > 0 && code[s - 1] ~ /fence|memory fence commit/) s--
                 for (i = s; i <= e; i++) print "epilog:  " code[i]
             }
         }' "$2"
}

for dev in $devices; do
    rev=$(revision "$dev")
    summary="$here/skeleton/$dev.txt"
    mkdir -p "$here/skeleton"
    {
        echo "# IGC's kernels for visa/igc-reference/*.cl on $dev${rev:+ (revision $rev)},"
        echo "# written by visa/igc-reference/dump.sh; see visa/IGC-SKELETON.md."
    } >"$summary"
    for cl in "$here"/*.cl; do
        prog=$(basename "$cl" .cl)
        # PVC dispatches no SIMD8.
        if [ "$dev" = pvc ] && [ "$prog" = simd8 ]; then continue; fi
        dir="$out/$dev/$prog"
        rm -rf "$dir"
        mkdir -p "$dir"
        IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir="$dir" \
            ocloc compile -q -file "$cl" -device "$dev" ${rev:+-revision_id "$rev"} \
            -out_dir "$dir/bin" >"$dir/ocloc.log" 2>&1 ||
            { echo "dump.sh: ocloc failed for $prog on $dev:" >&2; cat "$dir/ocloc.log" >&2; exit 1; }
        for visa in "$dir"/*_entry_*.visaasm; do
            asm=${visa%.visaasm}.asm
            kernel=$(sed -n 's/^\.kernel "\(.*\)"$/\1/p' "$visa")
            simd=$(echo "$visa" | sed 's/.*_simd\([0-9]*\)_entry.*/\1/')
            {
                echo
                echo "== $prog: kernel $kernel, SIMD$simd"
                skeleton "$visa" "$asm"
            } >>"$summary"
        done
    done
    echo "dump.sh: $dev: dumps in $out/$dev, skeleton in $summary"
done
