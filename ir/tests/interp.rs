//! The interpreter core against hand-computed per-lane results: divergent `if`s, loops
//! with per-lane trip counts, `break` and `continue`, phis at merges and loop headers.

use ir::interp::{Config, Env, EnvError, InterpErrorKind, Interpreter, IntrinsicCall};
use ir::{
    AluOp, Block, Builder, Function, Inst, InstKind, IntrinsicOp, Jump, Phi, Shader, Span, Src,
    Type, Value,
};

/// Serves `load_local_invocation_id` as (invocation, 0, 0) and records every execution of
/// `load_num_workgroups`, used as a marker, with its execution mask.
#[derive(Default)]
struct MarkerEnv {
    marks: Vec<(Inst, u32)>,
}

impl Env for MarkerEnv {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        match call.op() {
            IntrinsicOp::LoadLocalInvocationId => {
                let lanes: Vec<usize> = call.active_lanes().collect();
                for lane in lanes {
                    let inv = call.invocations[lane] as u64;
                    call.set_dest(lane, &[inv, 0, 0]);
                }
                Ok(())
            }
            IntrinsicOp::LoadNumWorkgroups => {
                self.marks.push((call.inst, call.exec_mask));
                Ok(())
            }
            IntrinsicOp::LoadWorkgroupId => Err(EnvError::at_lane(
                call.active_lanes().last().unwrap_or(0) as u32,
                "refused on purpose",
            )),
            op => Err(EnvError::msg(format!("unexpected @{op}"))),
        }
    }
}

fn lane_id(b: &mut Builder<'_>) -> Src {
    let id = b.system_value(IntrinsicOp::LoadLocalInvocationId);
    Src::channel(id, 0)
}

fn marker(b: &mut Builder<'_>) -> Inst {
    let v = b.system_value(IntrinsicOp::LoadNumWorkgroups);
    b.func.value_def(v).unwrap()
}

fn shader_of(f: Function) -> Shader {
    let mut s = Shader::new([8, 1, 1]);
    s.functions.push(f);
    s
}

fn run(shader: &Shader, lanes: u32) -> (Interpreter<'_>, MarkerEnv) {
    let mut env = MarkerEnv::default();
    let mut interp = Interpreter::new(shader, &shader.functions[0], Config::default());
    let invocations: Vec<u32> = (0..lanes).collect();
    interp.run(&invocations, &mut env).expect("run succeeds");
    (interp, env)
}

fn scalar(interp: &Interpreter<'_>, v: Value, lane: usize) -> u64 {
    interp
        .value(v, lane)
        .unwrap_or_else(|| panic!("{v:?} undefined in lane {lane}"))[0]
}

fn set_phi_srcs(f: &mut Function, phi: Value, srcs: &[(Block, Src)]) {
    let inst = f.value_def(phi).unwrap();
    f.inst_mut(inst).kind = InstKind::Phi(Phi {
        srcs: srcs.iter().copied().collect(),
    });
}

#[test]
fn divergent_if_else_merges_per_lane() {
    let mut f = Function::new("main");
    let (p, then_mark, else_mark);
    {
        let mut b = Builder::at_end(&mut f);
        let x = lane_id(&mut b);
        let three = b.imm_u32(3);
        let c = b.ult(x, three);
        let id = b.push_if(c);
        then_mark = marker(&mut b);
        let ten = b.imm_u32(10);
        let t = b.imul(x, ten);
        b.push_else(id);
        else_mark = marker(&mut b);
        let hundred = b.imm_u32(100);
        let e = b.iadd(x, hundred);
        b.pop_if(id);
        p = b.if_phi(id, t, e);
    }
    let shader = shader_of(f);
    let (interp, env) = run(&shader, 8);
    // Lanes 0..2 take the then side (x * 10), lanes 3..7 the else side (x + 100).
    let expected = [0, 10, 20, 103, 104, 105, 106, 107];
    for (lane, &e) in expected.iter().enumerate() {
        assert_eq!(scalar(&interp, p, lane), e, "lane {lane}");
    }
    assert_eq!(
        env.marks,
        vec![(then_mark, 0b0000_0111), (else_mark, 0b1111_1000)]
    );
}

#[test]
fn a_side_without_lanes_is_skipped() {
    let mut f = Function::new("main");
    let (p, then_mark);
    {
        let mut b = Builder::at_end(&mut f);
        let x = lane_id(&mut b);
        let big = b.imm_u32(1000);
        let c = b.ult(x, big);
        let id = b.push_if(c);
        then_mark = marker(&mut b);
        let one = b.imm_u32(1);
        b.push_else(id);
        let _else_mark = marker(&mut b);
        let two = b.imm_u32(2);
        b.pop_if(id);
        p = b.if_phi(id, one, two);
    }
    let shader = shader_of(f);
    let (interp, env) = run(&shader, 4);
    // Every lane is below 1000: the else side never runs, so its marker never fires.
    assert_eq!(env.marks, vec![(then_mark, 0b1111)]);
    for lane in 0..4 {
        assert_eq!(scalar(&interp, p, lane), 1);
    }
}

#[test]
fn nested_ifs_resolve_phis_from_the_path_taken() {
    // r = x < 4 ? (x odd ? 1 : 2) : 3
    let mut f = Function::new("main");
    let outer;
    {
        let mut b = Builder::at_end(&mut f);
        let x = lane_id(&mut b);
        let four = b.imm_u32(4);
        let c = b.ult(x, four);
        let o = b.push_if(c);
        let one = b.imm_u32(1);
        let bit = b.iand(x, one);
        let odd = b.i2b(bit);
        let i = b.push_if(odd);
        let a = b.imm_u32(1);
        b.push_else(i);
        let bb = b.imm_u32(2);
        b.pop_if(i);
        let inner = b.if_phi(i, a, bb);
        b.push_else(o);
        let three = b.imm_u32(3);
        b.pop_if(o);
        outer = b.if_phi(o, inner, three);
    }
    let shader = shader_of(f);
    let (interp, _) = run(&shader, 8);
    let expected = [2, 1, 2, 1, 3, 3, 3, 3];
    for (lane, &e) in expected.iter().enumerate() {
        assert_eq!(scalar(&interp, outer, lane), e, "lane {lane}");
    }
}

/// Builds `for (i = 0; i < x; i++) s += i;` with the exit test in the header, and a
/// marker in the header. Returns the function, the header phi of `s` and the marker.
fn counted_loop() -> (Function, Value, Value, Inst) {
    let mut f = Function::new("main");
    let (s, i, mark);
    {
        let mut b = Builder::at_end(&mut f);
        let x = lane_id(&mut b);
        let zero = b.imm_u32(0);
        let pre = b.current_block();
        let l = b.push_loop();
        i = b.phi(Type::U32, &[(pre, zero.into())]);
        s = b.phi(Type::U32, &[(pre, zero.into())]);
        mark = marker(&mut b);
        let done = b.uge(i, x);
        let id = b.push_if(done);
        b.jump(Jump::Break);
        b.push_else(id);
        b.pop_if(id);
        let one = b.imm_u32(1);
        let i1 = b.iadd(i, one);
        let s1 = b.iadd(s, i);
        let latch = b.current_block();
        b.pop_loop(l);
        set_phi_srcs(b.func, i, &[(pre, zero.into()), (latch, i1.into())]);
        set_phi_srcs(b.func, s, &[(pre, zero.into()), (latch, s1.into())]);
    }
    (f, s, i, mark)
}

#[test]
fn loop_with_per_lane_trip_counts() {
    let (f, s, i, mark) = counted_loop();
    let shader = shader_of(f);
    let (interp, env) = run(&shader, 8);
    // Lane x runs x iterations: s = 0 + 1 + ... + (x - 1), and leaves with i == x.
    let expected = [0, 0, 1, 3, 6, 10, 15, 21];
    for (lane, &e) in expected.iter().enumerate() {
        assert_eq!(scalar(&interp, s, lane), e, "s in lane {lane}");
        assert_eq!(scalar(&interp, i, lane), lane as u64, "i in lane {lane}");
    }
    // The header runs once per iteration for the lanes still in the loop: at iteration k,
    // the lanes with x >= k (they test and break there when x == k).
    let masks: Vec<u32> = env
        .marks
        .iter()
        .map(|&(inst, m)| {
            assert_eq!(inst, mark);
            m
        })
        .collect();
    assert_eq!(masks, vec![0xff, 0xfe, 0xfc, 0xf8, 0xf0, 0xe0, 0xc0, 0x80]);
}

#[test]
fn continue_parks_lanes_until_the_next_iteration() {
    // for (i = 0; i < x; i++) { if (i & 1) continue; s += i; }
    let mut f = Function::new("main");
    let (s, head_mark, tail_mark);
    {
        let mut b = Builder::at_end(&mut f);
        let x = lane_id(&mut b);
        let zero = b.imm_u32(0);
        let pre = b.current_block();
        let l = b.push_loop();
        let i = b.phi(Type::U32, &[(pre, zero.into())]);
        s = b.phi(Type::U32, &[(pre, zero.into())]);
        head_mark = marker(&mut b);
        let done = b.uge(i, x);
        let brk = b.push_if(done);
        b.jump(Jump::Break);
        b.push_else(brk);
        b.pop_if(brk);
        let one = b.imm_u32(1);
        let i1 = b.iadd(i, one);
        let bit = b.iand(i, one);
        let odd = b.i2b(bit);
        let cont = b.push_if(odd);
        let cont_block = b.current_block();
        b.jump(Jump::Continue);
        b.push_else(cont);
        b.pop_if(cont);
        tail_mark = marker(&mut b);
        let s1 = b.iadd(s, i);
        let latch = b.current_block();
        b.pop_loop(l);
        set_phi_srcs(
            b.func,
            i,
            &[
                (pre, zero.into()),
                (cont_block, i1.into()),
                (latch, i1.into()),
            ],
        );
        set_phi_srcs(
            b.func,
            s,
            &[
                (pre, zero.into()),
                (cont_block, s.into()),
                (latch, s1.into()),
            ],
        );
    }
    let shader = shader_of(f);
    let (interp, env) = run(&shader, 8);
    // Sum of the even i below x.
    let expected = [0, 0, 0, 2, 2, 6, 6, 12];
    for (lane, &e) in expected.iter().enumerate() {
        assert_eq!(scalar(&interp, s, lane), e, "lane {lane}");
    }
    let heads: Vec<u32> = env
        .marks
        .iter()
        .filter(|m| m.0 == head_mark)
        .map(|m| m.1)
        .collect();
    let tails: Vec<u32> = env
        .marks
        .iter()
        .filter(|m| m.0 == tail_mark)
        .map(|m| m.1)
        .collect();
    // Continuing lanes come back to the header with the others.
    assert_eq!(heads, vec![0xff, 0xfe, 0xfc, 0xf8, 0xf0, 0xe0, 0xc0, 0x80]);
    // The tail runs on even iterations only, for the lanes with x > i.
    assert_eq!(tails, vec![0xfe, 0xf8, 0xe0, 0x80]);
}

#[test]
fn nested_loops_break_only_the_inner_one() {
    // t = 0; for (j = 0; j < 3; j++) { for (k = 0; ; k++) { if (k >= x) break; t++; } }
    // so t = 3 * x.
    let mut f = Function::new("main");
    let t_outer;
    {
        let mut b = Builder::at_end(&mut f);
        let x = lane_id(&mut b);
        let zero = b.imm_u32(0);
        let one = b.imm_u32(1);
        let three = b.imm_u32(3);
        let pre = b.current_block();
        let lo = b.push_loop();
        let j = b.phi(Type::U32, &[(pre, zero.into())]);
        t_outer = b.phi(Type::U32, &[(pre, zero.into())]);
        let jdone = b.uge(j, three);
        let jb = b.push_if(jdone);
        b.jump(Jump::Break);
        b.push_else(jb);
        b.pop_if(jb);
        let inner_pre = b.current_block();
        let li = b.push_loop();
        let k = b.phi(Type::U32, &[(inner_pre, zero.into())]);
        let t = b.phi(Type::U32, &[(inner_pre, t_outer.into())]);
        let kdone = b.uge(k, x);
        let kb = b.push_if(kdone);
        b.jump(Jump::Break);
        b.push_else(kb);
        b.pop_if(kb);
        let k1 = b.iadd(k, one);
        let t1 = b.iadd(t, one);
        let inner_latch = b.current_block();
        b.pop_loop(li);
        set_phi_srcs(
            b.func,
            k,
            &[(inner_pre, zero.into()), (inner_latch, k1.into())],
        );
        set_phi_srcs(
            b.func,
            t,
            &[(inner_pre, t_outer.into()), (inner_latch, t1.into())],
        );
        // After the inner loop: one predecessor (the breaking block); t is the header phi.
        let j1 = b.iadd(j, one);
        let outer_latch = b.current_block();
        b.pop_loop(lo);
        set_phi_srcs(b.func, j, &[(pre, zero.into()), (outer_latch, j1.into())]);
        set_phi_srcs(
            b.func,
            t_outer,
            &[(pre, zero.into()), (outer_latch, t.into())],
        );
    }
    let shader = shader_of(f);
    let (interp, _) = run(&shader, 6);
    for lane in 0..6 {
        assert_eq!(
            scalar(&interp, t_outer, lane),
            3 * lane as u64,
            "lane {lane}"
        );
    }
}

#[test]
fn partial_subgroups_and_undef() {
    let mut f = Function::new("main");
    let (u, x);
    {
        let mut b = Builder::at_end(&mut f);
        x = b.system_value(IntrinsicOp::LoadLocalInvocationId);
        u = b.undef(Type::vec32(2));
    }
    let shader = shader_of(f);
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    let mut env = MarkerEnv::default();
    interp
        .run_masked(&[10, 11, 12, 13], 0b0101, &mut env)
        .unwrap();
    assert_eq!(interp.value(x, 0), Some(&[10u64, 0, 0][..]));
    assert_eq!(interp.value(x, 2), Some(&[12u64, 0, 0][..]));
    assert_eq!(interp.value(x, 1), None, "lane 1 is inactive");
    // undef is defined as zero.
    assert_eq!(interp.value(u, 0), Some(&[0u64, 0][..]));
    assert_eq!(interp.defined_lanes(u), 0b0101);
}

#[test]
fn infinite_loops_hit_the_step_limit() {
    let mut f = Function::new("main");
    {
        let mut b = Builder::at_end(&mut f);
        let l = b.push_loop();
        let _ = b.imm_u32(1);
        b.pop_loop(l);
    }
    let shader = shader_of(f);
    let mut interp = Interpreter::new(
        &shader,
        &shader.functions[0],
        Config {
            max_steps: 50,
            ..Config::default()
        },
    );
    let err = interp.run(&[0, 1], &mut MarkerEnv::default()).unwrap_err();
    assert!(
        matches!(
            err.kind,
            InterpErrorKind::StepLimit {
                limit: 50,
                in_loop: Some(_)
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("more than 50 steps"), "{err}");
}

#[test]
fn errors_name_the_instruction_and_the_lane() {
    // An ALU shape error: iadd of a 32-bit and a 64-bit value.
    let mut f = Function::new("main");
    {
        let mut b = Builder::at_end(&mut f);
        let a = b.imm_u32(1);
        let c = b.imm_u64(2);
        b.span = Span::new(7, 5);
        b.alu_typed(AluOp::Iadd, &[a.into(), c.into()], Type::U32);
    }
    let shader = shader_of(f);
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    let err = interp
        .run(&[0, 1, 2], &mut MarkerEnv::default())
        .unwrap_err();
    assert!(matches!(
        err.kind,
        InterpErrorKind::Alu {
            op: AluOp::Iadd,
            ..
        }
    ));
    assert_eq!(err.span, Span::new(7, 5));
    assert_eq!(err.lane, Some(0));
    let text = err.to_string();
    assert!(text.starts_with("7:5: `iadd` (lane 0): "), "{text}");

    // An environment error keeps its lane and its cause.
    let mut g = Function::new("main");
    {
        let mut b = Builder::at_end(&mut g);
        b.span = Span::new(3, 1);
        b.system_value(IntrinsicOp::LoadWorkgroupId);
    }
    let shader = shader_of(g);
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    let err = interp
        .run(&[0, 1, 2], &mut MarkerEnv::default())
        .unwrap_err();
    assert_eq!(err.lane, Some(2));
    assert_eq!(
        err.to_string(),
        "3:1: `@load_workgroup_id` (lane 2): refused on purpose"
    );
}

#[test]
fn bad_lane_counts_are_errors() {
    let shader = shader_of(Function::new("main"));
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    let many: Vec<u32> = (0..33).collect();
    for lanes in [&[][..], &many[..]] {
        let err = interp.run(lanes, &mut MarkerEnv::default()).unwrap_err();
        assert!(matches!(err.kind, InterpErrorKind::BadLaneCount { .. }));
    }
    // 32 lanes is the maximum and works.
    interp.run(&many[..32], &mut MarkerEnv::default()).unwrap();
}

#[test]
fn loop_exit_phi_takes_the_breaking_block_of_each_lane() {
    // loop { if (x < 2) { break (r = 10) } if (x >= 5) { break (r = 20) } x' = x + 1 ... }
    // Lanes leave from two different blocks; the exit phi picks per lane.
    let mut f = Function::new("main");
    let (r, n);
    {
        let mut b = Builder::at_end(&mut f);
        let x = lane_id(&mut b);
        let two = b.imm_u32(2);
        let five = b.imm_u32(5);
        let one = b.imm_u32(1);
        let ten = b.imm_u32(10);
        let twenty = b.imm_u32(20);
        let pre = b.current_block();
        let l = b.push_loop();
        let it = b.phi(Type::U32, &[(pre, x)]);
        let small = b.ult(it, two);
        let i1 = b.push_if(small);
        let brk_small = b.current_block();
        b.jump(Jump::Break);
        b.push_else(i1);
        b.pop_if(i1);
        let big = b.uge(it, five);
        let i2 = b.push_if(big);
        let brk_big = b.current_block();
        b.jump(Jump::Break);
        b.push_else(i2);
        b.pop_if(i2);
        let next = b.iadd(it, one);
        let latch = b.current_block();
        b.pop_loop(l);
        set_phi_srcs(b.func, it, &[(pre, x), (latch, next.into())]);
        r = b.phi(
            Type::U32,
            &[(brk_small, ten.into()), (brk_big, twenty.into())],
        );
        n = it;
    }
    let shader = shader_of(f);
    let (interp, _) = run(&shader, 8);
    // Lanes 0 and 1 break at once through the first exit; lanes 2..4 count up to 5 and
    // leave through the second; lanes 5..7 leave through the second at once.
    let expected_r = [10, 10, 20, 20, 20, 20, 20, 20];
    let expected_n = [0, 1, 5, 5, 5, 5, 6, 7];
    for lane in 0..8 {
        assert_eq!(
            scalar(&interp, r, lane),
            expected_r[lane],
            "r in lane {lane}"
        );
        assert_eq!(
            scalar(&interp, n, lane),
            expected_n[lane],
            "n in lane {lane}"
        );
    }
}

/// A shader whose `main` counts `%10` from 0 to `iterations` in a loop whose body
/// holds `body` more `iadd`s (accumulated in `%20`), with no intrinsics.
fn counting_loop(iterations: u32, body: usize) -> Shader {
    let mut text = format!(
        "shader compute (local_size=1,1,1)
fn main {{
  block b0:
    32 %2 = load_const (0)
    32 %3 = load_const (1)
    32 %4 = load_const ({iterations})
  loop {{
    block b1:
      32 %10 = phi b0: %2, b3: %11
      32 %20 = phi b0: %2, b3: %30
      1  %12 = uge %10, %4
    if %12 {{
      block b2:
        break
    }} else {{
      block b4:
    }}
    block b3:
      32 %11 = iadd %10, %3
"
    );
    let mut prev = "%20".to_string();
    for k in 0..body {
        text.push_str(&format!("      32 %{} = iadd {prev}, %3\n", 100 + k));
        prev = format!("%{}", 100 + k);
    }
    text.push_str(&format!(
        "      32 %30 = mov {prev}
  }}
  block b5:
}}
"
    ));
    ir::parse_shader(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

#[test]
fn registers_follow_the_values_used_not_the_largest_id() {
    // The only values are %16777215 and %16777214: the registers hold two scalars per
    // lane, not 2^24 (which took gigabytes per subgroup).
    let shader = ir::parse_shader(
        "shader compute (local_size=32,1,1)
fn main {
  block b0:
    32 %16777214 = load_const (20)
    32 %16777215 = iadd %16777214, %16777214
}
",
    )
    .unwrap();
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    let lanes: Vec<u32> = (0..32).collect();
    interp.run(&lanes, &mut MarkerEnv::default()).unwrap();
    assert_eq!(interp.register_words(), 2 * 32);
    let f = &shader.functions[0];
    assert_eq!(
        interp.value(f.value_named(16_777_215).unwrap(), 31),
        Some(&[40u64][..])
    );
    assert_eq!(interp.value(Value::from_u32(7), 0), None);
    // The function holds the two values, not 2^24.
    assert_eq!(f.num_value_ids(), 2);
}

#[test]
fn the_step_budget_counts_instructions_not_blocks() {
    // 1,000 iterations of 3 blocks and 23 instructions: 3,000 blocks, but 26,000 steps.
    let shader = counting_loop(1000, 20);
    let mut interp = Interpreter::new(
        &shader,
        &shader.functions[0],
        Config {
            max_steps: 10_000,
            ..Config::default()
        },
    );
    let err = interp.run(&[0], &mut MarkerEnv::default()).unwrap_err();
    assert!(
        matches!(
            err.kind,
            InterpErrorKind::StepLimit {
                limit: 10_000,
                in_loop: Some(_)
            }
        ),
        "{err}"
    );
    // With room, it finishes and reports its steps: per iteration 3 blocks (header,
    // else, latch) plus 2 phis, the compare, the counter, 20 iadds and the mov; the
    // last test takes 2 blocks (header, then) and 3 instructions, the entry 1 block and
    // 3 constants, the empty block after the loop 1 block.
    let mut interp = Interpreter::new(
        &shader,
        &shader.functions[0],
        Config {
            max_steps: 30_000,
            ..Config::default()
        },
    );
    let stats = interp.run(&[0], &mut MarkerEnv::default()).unwrap();
    assert_eq!(stats.steps(), 1000 * (3 + 25) + (2 + 3) + (1 + 3) + 1);
}

#[test]
fn a_long_finite_loop_finishes_under_the_default_budget() {
    // 400,000 iterations: refused as an infinite loop by the old 1,000,000-block limit.
    let shader = counting_loop(400_000, 1);
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    interp.run(&[0], &mut MarkerEnv::default()).unwrap();
    let f = &shader.functions[0];
    assert_eq!(
        interp.value(f.value_named(10).unwrap(), 0),
        Some(&[400_000u64][..])
    );
    assert_eq!(
        interp.value(f.value_named(20).unwrap(), 0),
        Some(&[400_000u64][..])
    );
}
