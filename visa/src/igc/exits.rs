//! The ways out of a compiled kernel: GenX_IR's Gen assembly listing read as a
//! control-flow graph, so that a check can require that every path from the entry ends
//! in an end-of-thread send.
//!
//! A thread leaves its code in three ways: an end-of-thread send (`send.gtwy ...
//! {EOT}` from Gfx12.5, `send.ts` on Gfx12.0, `send ... 0x27` to the thread spawner on
//! Gfx8 to Gfx11), a subroutine `ret` (which in a kernel returns to nothing: the thread
//! never ends), or running past the last instruction. The graph is conservative: a
//! predicated branch may go either way whatever its predicate (the SIMD branches `goto`,
//! `join`, `if`, `else`, `endif`, `while`, `break`, `cont`, `halt` to each label they
//! name and to the next instruction), so "every path" includes paths no lane takes. An
//! unpredicated `jmpi`, `goto` or `while` sends every lane to its labels (an
//! unpredicated backward `goto.b` to its UIP, the loop's head), except that a `while`
//! some `break` names (its UIP: the lanes that broke out wait there) also goes on: once
//! every lane has broken out, it has none left to send back. An end-of-thread send has no successor: whatever
//! follows it in the listing (GenX_IR puts a labelled `nop` there) runs only if a
//! branch leads to it.

use std::collections::HashMap;

/// What the listing's paths end in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadExits {
    /// The end-of-thread sends some path from the entry reaches, as listing lines.
    pub end_of_thread: Vec<String>,
    /// The ways out that do not end the thread, each said in words with its line: a
    /// subroutine return or call, a predicated end-of-thread send, a branch to
    /// something that is not a label, the path that runs past the last instruction.
    pub open: Vec<String>,
}

impl ThreadExits {
    /// Reads the paths of an assembly listing (the `.asm` GenX_IR writes with
    /// `-output`).
    pub fn of(asm: &str) -> ThreadExits {
        let mut code: Vec<&str> = Vec::new();
        let mut labels: HashMap<&str, usize> = HashMap::new();
        for line in asm.lines() {
            let l = line.split("//").next().unwrap_or("").trim();
            if l.is_empty() {
                continue;
            }
            match l.strip_suffix(':') {
                Some(label) if !label.contains(char::is_whitespace) => {
                    labels.insert(label, code.len());
                }
                _ => code.push(l),
            }
        }
        // The instructions a `break` leads to: a loop's `while` is left there.
        let broken_to: std::collections::HashSet<usize> = code
            .iter()
            .map(|l| Instruction::read(l))
            .filter(|i| i.op.split('.').next() == Some("break"))
            .flat_map(|i| {
                i.operands
                    .iter()
                    .filter_map(|t| labels.get(t).copied())
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut exits = ThreadExits::default();
        let mut seen = vec![false; code.len()];
        let mut work = if code.is_empty() { vec![] } else { vec![0] };
        if code.is_empty() {
            exits
                .open
                .push("the listing has no instructions".to_string());
        }
        while let Some(pc) = work.pop() {
            if std::mem::replace(&mut seen[pc], true) {
                continue;
            }
            let inst = Instruction::read(code[pc]);
            let mut next = Vec::new();
            let falls_through = match inst.kind {
                Kind::EndOfThread => {
                    if inst.predicated {
                        exits
                            .open
                            .push(format!("a predicated end-of-thread send `{}`", code[pc]));
                    } else {
                        exits.end_of_thread.push(code[pc].to_string());
                    }
                    inst.predicated
                }
                Kind::Return => {
                    exits
                        .open
                        .push(format!("a subroutine return `{}`", code[pc]));
                    false
                }
                Kind::Call => {
                    exits.open.push(format!("a subroutine call `{}`", code[pc]));
                    true
                }
                Kind::Jump | Kind::SimdBranch => {
                    let mut named = 0;
                    // Every lane takes an unpredicated backward `goto.b` back to its
                    // UIP (the last label); its JIP, where lanes that stay would go, is
                    // never taken (GenX_IR may even have deleted that block, as after
                    // a loop without a way out).
                    let targets = if inst.backward_goto() && !inst.predicated {
                        &inst.operands[inst.operands.len().saturating_sub(1)..]
                    } else {
                        &inst.operands[..]
                    };
                    for t in targets {
                        match labels.get(t) {
                            Some(&target) => {
                                named += 1;
                                next.push(target);
                            }
                            None if t.starts_with('(') || *t == "null" => {}
                            None => exits.open.push(format!(
                                "a branch to `{t}`, which is not a label: `{}`",
                                code[pc]
                            )),
                        }
                    }
                    if named == 0 && inst.kind == Kind::Jump {
                        exits
                            .open
                            .push(format!("a jump without a label `{}`", code[pc]));
                    }
                    // An unpredicated `goto` or `while` sends every lane to its
                    // labels (but a `while` a `break` leads to is left when every
                    // lane has broken out); other SIMD branches may also go on.
                    inst.predicated
                        || (inst.kind == Kind::SimdBranch && !inst.all_lanes_branch())
                        || (inst.op.split('.').next() == Some("while") && broken_to.contains(&pc))
                }
                Kind::Other => true,
            };
            if falls_through {
                if pc + 1 < code.len() {
                    next.push(pc + 1);
                } else {
                    exits.open.push(format!(
                        "the path that runs past the last instruction `{}`",
                        code[pc]
                    ));
                }
            }
            work.extend(next.into_iter().filter(|&n| !seen[n]));
        }
        exits
    }
}

/// What an instruction does to the flow of control.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A send with `EOT` among its SWSB tokens.
    EndOfThread,
    /// `ret`.
    Return,
    /// `call`, `calla`.
    Call,
    /// `jmpi`: to its label; onwards too when predicated.
    Jump,
    /// A SIMD branch: to each label it names and onwards.
    SimdBranch,
    /// Anything else: onwards.
    Other,
}

/// One instruction of the listing.
struct Instruction<'a> {
    predicated: bool,
    /// The mnemonic with its suffixes (`goto.b`).
    op: &'a str,
    kind: Kind,
    operands: Vec<&'a str>,
}

impl<'a> Instruction<'a> {
    /// Whether the instruction is a backward `goto` (`goto.b`).
    fn backward_goto(&self) -> bool {
        self.op == "goto.b"
    }

    /// Whether every enabled lane branches when the instruction is unpredicated.
    fn all_lanes_branch(&self) -> bool {
        let base = self.op.split('.').next().unwrap_or("");
        !self.predicated && matches!(base, "goto" | "while")
    }

    fn read(line: &'a str) -> Instruction<'a> {
        let (code, swsb) = match line.split_once('{') {
            Some((c, s)) => (c, s),
            None => (line, ""),
        };
        let mut tokens = code.split_whitespace().peekable();
        let mut predicated = false;
        if let Some(p) = tokens.peek().filter(|t| t.starts_with('(')) {
            predicated = *p != "(W)";
            tokens.next();
        }
        let op = tokens.next().unwrap_or("");
        let base = op.split('.').next().unwrap_or("");
        let eot = swsb.split([',', '}']).any(|t| t.trim() == "EOT");
        let kind = match base {
            "send" | "sends" | "sendc" | "sendsc" if eot => Kind::EndOfThread,
            "ret" => Kind::Return,
            "call" | "calla" => Kind::Call,
            "jmpi" => Kind::Jump,
            "goto" | "join" | "if" | "else" | "endif" | "while" | "break" | "cont" | "halt"
            | "brc" | "brd" => Kind::SimdBranch,
            _ => Kind::Other,
        };
        Instruction {
            predicated,
            op,
            kind,
            operands: tokens.collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GenX_IR 1.0.12504's DG2 listing of `examples/row_sums.ir` (the control flow and
    /// the end), a loop with a break in a branch.
    const ROW_SUMS: &str = "\
per_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                                                //
(~f0.0) goto (16|M0)                         if1_end           if1_end                               // $18
_main_k0_0_:
loop2_head:
(~f0.1) goto (16|M0)                         if3_end           if3_end                               // $25
_main_k0_1_:
        goto (16|M0)                         if3_end           loop2_end                             // $26
if3_end:
        join (16|M0)                         loop2_end                                               //
L536:
        sync.nop                             null                             {Compacted,$5.dst}     // $33
(W)     jmpi                                 loop2_head                                              // $37
loop2_end:
        join (16|M0)                         if1_end                                                 //
L672:
        sync.nop                             null                             {Compacted,$6.dst}     // $52
if1_end:
        join (16|M0)                         L936                                                    //
L936:
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $58
L960:
        nop                                                                                          // $58
";

    #[test]
    fn every_path_of_a_loop_in_a_branch_ends_in_the_eot_send() {
        let e = ThreadExits::of(ROW_SUMS);
        assert!(e.open.is_empty(), "{:?}", e.open);
        assert_eq!(e.end_of_thread.len(), 1);
        assert!(e.end_of_thread[0].starts_with("(W)     send.gtwy"));
        // BDW's form: a send to the thread spawner.
        let bdw = "(W)     send (8|M0)              null     r127:f  0x27            0x02000010           {EOT} // spawner; end of thread\n";
        assert!(ThreadExits::of(bdw).open.is_empty());
    }

    #[test]
    fn a_path_around_the_eot_send_is_an_open_exit() {
        // A branch whose join point is the label after the end of thread: its lanes
        // run the `nop` and then past the end.
        let skip = ROW_SUMS.replace(
            "(~f0.0) goto (16|M0)                         if1_end           if1_end",
            "(~f0.0) goto (16|M0)                         L960           L960",
        );
        let e = ThreadExits::of(&skip);
        assert_eq!(e.open.len(), 1, "{:?}", e.open);
        assert!(e.open[0].contains("runs past the last instruction `nop`"));
        // No end of thread at all.
        let none = ROW_SUMS.replace("{EOT,A@1}", "{A@1}");
        let e = ThreadExits::of(&none);
        assert!(e.end_of_thread.is_empty());
        assert!(e.open[0].contains("runs past"), "{:?}", e.open);
        // A predicated end of thread, a return, a jump to no label.
        let pred = ROW_SUMS.replace("(W)     send.gtwy", "(f0.0)  send.gtwy");
        assert!(ThreadExits::of(&pred).open[0].contains("predicated end-of-thread"));
        let ret = "        add (16|M0)  r4.0<1>:ud r4.0<1;1,0>:ud 0x1:uw\n        ret (16|M0)                          r0.2                             {A@1}                  // $78\n";
        let e = ThreadExits::of(ret);
        assert_eq!(e.open, ["a subroutine return `ret (16|M0)                          r0.2                             {A@1}`"]);
        let jump = ROW_SUMS.replace(
            "jmpi                                 loop2_head",
            "jmpi   L9999",
        );
        assert!(ThreadExits::of(&jump).open[0].contains("`L9999`, which is not a label"));
    }

    #[test]
    fn an_endless_loop_has_no_exit() {
        // A loop without a break: GenX_IR deletes its exit, and the end of thread with it.
        let endless = "loop1_head:
        store_quad.tgm.d32.x.a32 (8|M0)  bti[0][r4:1] r6:6         {A@1,$3} // ex_desc:0x0; desc:0x62001506 // $10
(W)     jmpi                                 loop1_head                                              // $13
";
        let e = ThreadExits::of(endless);
        assert!(e.open.is_empty() && e.end_of_thread.is_empty(), "{e:?}");
        let leaves = endless.replace("(W)     jmpi", "(f0.0)  jmpi");
        assert!(ThreadExits::of(&leaves).open[0].contains("runs past"));
        // GenX_IR's TGLLP listing of the same loop with `-noScalarJmp`: a backward goto
        // whose JIP, the deleted block after the loop, is no label of the listing.
        let tgl = "L128:
        goto.b (16|M0)                       L144              L128                                  // $15
";
        let e = ThreadExits::of(tgl);
        assert!(e.open.is_empty() && e.end_of_thread.is_empty(), "{e:?}");
        let leaves = tgl.replace("        goto.b", "(f0.0)  goto.b");
        let e = ThreadExits::of(&leaves);
        assert!(
            e.open
                .iter()
                .any(|o| o.contains("`L144`, which is not a label")),
            "{e:?}"
        );
        // A forward goto every lane takes goes to both its labels, not onwards.
        let forward = "        goto (16|M0)                         L2              L2
        nop
L2:
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT}
";
        assert!(ThreadExits::of(forward).open.is_empty());
    }

    #[test]
    fn a_structured_loop_is_left_by_its_break() {
        // GenX_IR's SKL listing (with `-enableStructurizer`) of a loop whose only way out
        // is a `break`: its UIP is the `while`, which goes on once every lane broke out.
        let looped = "loop1_head:
(f0.1)  break (16|M0)                        L2                L2
        add (16|M0)              r3.0<1>:ud    r3.0<8;8,1>:ud    0x1:uw
L2:
        while (16|M0)                        loop1_head
loop1_end:
(W)     send (8|M0)              null     r127    0x27            0x02000010           {EOT} // spawner; end of thread
";
        let e = ThreadExits::of(looped);
        assert!(e.open.is_empty(), "{e:?}");
        assert_eq!(e.end_of_thread.len(), 1);
        // Without the break the `while` never lets its lanes go.
        let endless = looped.replace(
            "(f0.1)  break (16|M0)                        L2                L2\n",
            "",
        );
        assert_ne!(endless, looped);
        let e = ThreadExits::of(&endless);
        assert!(e.open.is_empty() && e.end_of_thread.is_empty(), "{e:?}");
    }
}
