//! The control-flow graph of a function and its dominator tree.
//!
//! [`Cfg`] derives the graph from the structured control-flow tree with the same rules
//! as [`Function::successors`] (a block falls through into the `if` or `loop` after
//! it, or to the block after its enclosing `if`, or back to its loop header; `break`
//! and `continue` go to the block after the loop and to the header), but in one walk
//! of the tree, so that building it is linear in the size of the function even when a
//! list holds a hundred thousand `if`s.
//!
//! [`DomTree`] computes immediate dominators and numbers the tree in pre/post order, so
//! that "does A dominate B" is two comparisons. Unreachable blocks follow NIR
//! (`nir_block_dominates`): every block dominates an unreachable block, and an
//! unreachable block dominates no reachable one.
//!
//! Two constructions give the same tree. [`DomTree::new`] uses petgraph's
//! [`simple_fast`]: the reference, which the property suite compares the other with on
//! every generated shader. [`DomTree::new_fast`], which the passes and the validator
//! use, runs the same algorithm (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
//! Algorithm") directly on the graph's vectors, numbered in reverse postorder:
//! petgraph's generic version builds a graph and keeps its numbering in hash maps, which
//! made it the largest single cost of the cleanup loop, and of validating an imported
//! shader, on functions with tens of thousands of blocks. On the reducible graphs
//! structured control flow gives, the iteration settles after one pass over the blocks
//! plus one to confirm it.

use crate::entity::Block;
use crate::function::{CfNode, CfParent, Function, Jump};
use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use smallvec::SmallVec;

const NONE: u32 = u32::MAX;

/// The control-flow graph of a function: its blocks in program order and the edges
/// between them.
///
/// Blocks are numbered by their position in program order ("nodes"); the entry block
/// is node 0. A block that a malformed tree lists twice is counted once, at its first
/// position.
#[derive(Clone, Debug)]
pub struct Cfg {
    blocks: Vec<Block>,
    node_of: Vec<u32>,
    succs: Vec<SmallVec<[u32; 2]>>,
    preds: Vec<SmallVec<[u32; 2]>>,
}

/// Where a list sits, for computing the successors of its blocks.
#[derive(Copy, Clone)]
struct ListCtx {
    /// Where control goes when it falls off the end of the list.
    exit: Option<Block>,
    /// The innermost enclosing loop: its header and the block after it.
    lp: Option<(Option<Block>, Option<Block>)>,
}

fn first_block_of(list: &[CfNode]) -> Option<Block> {
    match list.first() {
        Some(CfNode::Block(b)) => Some(*b),
        _ => None,
    }
}

fn block_at(list: &[CfNode], pos: usize) -> Option<Block> {
    match list.get(pos) {
        Some(CfNode::Block(b)) => Some(*b),
        _ => None,
    }
}

impl Cfg {
    /// Builds the graph of `func` in one walk of its control-flow tree.
    pub fn new(func: &Function) -> Cfg {
        let mut blocks: Vec<Block> = Vec::new();
        let mut node_of = vec![NONE; func.num_block_ids()];
        let mut succ_blocks: Vec<SmallVec<[Block; 2]>> = Vec::new();
        let mut seen_if = vec![false; func.num_if_ids()];
        let mut seen_loop = vec![false; func.num_loop_ids()];

        // An explicit stack of (list, next position, context) keeps deep nesting off
        // the call stack.
        let root = ListCtx {
            exit: None,
            lp: None,
        };
        let mut stack: Vec<(CfParent, usize, ListCtx)> = vec![(CfParent::Root, 0, root)];
        while let Some(top) = stack.last_mut() {
            let (parent, pos, ctx) = *top;
            let list = func.cf_list(parent);
            let Some(&node) = list.get(pos) else {
                stack.pop();
                continue;
            };
            top.1 += 1;
            match node {
                CfNode::Block(b) => {
                    if b.index() >= node_of.len() || node_of[b.index()] != NONE {
                        continue;
                    }
                    node_of[b.index()] = blocks.len() as u32;
                    blocks.push(b);
                    let mut out: SmallVec<[Block; 2]> = SmallVec::new();
                    if let Some(jump) = func.block(b).jump {
                        if let Some((header, after)) = ctx.lp {
                            out.extend(match jump {
                                Jump::Break => after,
                                Jump::Continue => header,
                            });
                        }
                    } else {
                        match list.get(pos + 1) {
                            Some(CfNode::If(i)) if i.index() < func.num_if_ids() => {
                                let d = func.if_data(*i);
                                out.extend(first_block_of(&d.then_list));
                                out.extend(first_block_of(&d.else_list));
                            }
                            Some(CfNode::Loop(l)) if l.index() < func.num_loop_ids() => {
                                out.extend(first_block_of(&func.loop_data(*l).body));
                            }
                            Some(_) => {}
                            None => out.extend(ctx.exit),
                        }
                    }
                    out.dedup();
                    succ_blocks.push(out);
                }
                CfNode::If(i) => {
                    if i.index() >= seen_if.len() || seen_if[i.index()] {
                        continue;
                    }
                    seen_if[i.index()] = true;
                    let inner = ListCtx {
                        exit: block_at(list, pos + 1),
                        lp: ctx.lp,
                    };
                    // Pushed in reverse so that the then list is walked first.
                    stack.push((CfParent::Else(i), 0, inner));
                    stack.push((CfParent::Then(i), 0, inner));
                }
                CfNode::Loop(l) => {
                    if l.index() >= seen_loop.len() || seen_loop[l.index()] {
                        continue;
                    }
                    seen_loop[l.index()] = true;
                    let header = first_block_of(&func.loop_data(l).body);
                    let inner = ListCtx {
                        exit: header,
                        lp: Some((header, block_at(list, pos + 1))),
                    };
                    stack.push((CfParent::Loop(l), 0, inner));
                }
            }
        }

        let n = blocks.len();
        let mut succs: Vec<SmallVec<[u32; 2]>> = Vec::with_capacity(n);
        let mut preds: Vec<SmallVec<[u32; 2]>> = vec![SmallVec::new(); n];
        for (from, out) in succ_blocks.iter().enumerate() {
            let mut s: SmallVec<[u32; 2]> = SmallVec::new();
            for b in out {
                let to = node_of.get(b.index()).copied().unwrap_or(NONE);
                if to != NONE && !s.contains(&to) {
                    s.push(to);
                    preds[to as usize].push(from as u32);
                }
            }
            succs.push(s);
        }
        Cfg {
            blocks,
            node_of,
            succs,
            preds,
        }
    }

    /// The blocks of the tree in program order.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// Number of blocks in the graph.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Whether the function has no block at all.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The entry block.
    pub fn entry(&self) -> Option<Block> {
        self.blocks.first().copied()
    }

    /// The position of `block` in program order, if it is in the tree.
    pub fn node(&self, block: Block) -> Option<usize> {
        match self.node_of.get(block.index()) {
            Some(&n) if n != NONE => Some(n as usize),
            _ => None,
        }
    }

    /// The block at position `node` of program order.
    pub fn block(&self, node: usize) -> Block {
        self.blocks[node]
    }

    /// Whether `block` is in the tree.
    pub fn contains(&self, block: Block) -> bool {
        self.node(block).is_some()
    }

    /// The successors of `block` (empty if it is not in the tree).
    pub fn successors(&self, block: Block) -> impl Iterator<Item = Block> + '_ {
        let list = self.node(block).map(|n| &self.succs[n][..]).unwrap_or(&[]);
        list.iter().map(|&s| self.blocks[s as usize])
    }

    /// The predecessors of `block`, in program order (empty if it is not in the tree).
    pub fn predecessors(&self, block: Block) -> impl Iterator<Item = Block> + '_ {
        let list = self.node(block).map(|n| &self.preds[n][..]).unwrap_or(&[]);
        list.iter().map(|&p| self.blocks[p as usize])
    }

    /// Whether there is an edge `from -> to`.
    pub fn has_edge(&self, from: Block, to: Block) -> bool {
        match (self.node(from), self.node(to)) {
            (Some(f), Some(t)) => self.succs[f].contains(&(t as u32)),
            _ => false,
        }
    }

    /// Successor node indices of node `n`.
    pub(crate) fn succ_nodes(&self, n: usize) -> &[u32] {
        &self.succs[n]
    }
}

/// The dominator tree of a [`Cfg`], with constant-time dominance queries.
#[derive(Clone, Debug)]
pub struct DomTree {
    node_of: Vec<u32>,
    blocks: Vec<Block>,
    idom: Vec<u32>,
    pre: Vec<u32>,
    post: Vec<u32>,
    preorder: Vec<u32>,
    children: Vec<SmallVec<[u32; 2]>>,
}

/// Immediate dominators of the nodes of a graph given by its successor lists, rooted at
/// node 0, by Cooper, Harvey and Kennedy's iteration over the reverse postorder.
/// `NONE` for the root and for nodes the root does not reach.
fn immediate_dominators(succs: &[SmallVec<[u32; 2]>]) -> Vec<u32> {
    let n = succs.len();
    let mut idom = vec![NONE; n];
    if n == 0 {
        return idom;
    }
    // Postorder by an explicit depth-first walk (deep nesting stays off the call stack).
    let mut post_num = vec![NONE; n];
    let mut postorder: Vec<u32> = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    visited[0] = true;
    while let Some(top) = stack.last_mut() {
        let (node, next) = *top;
        match succs[node as usize].get(next) {
            Some(&s) => {
                top.1 += 1;
                if !visited[s as usize] {
                    visited[s as usize] = true;
                    stack.push((s, 0));
                }
            }
            None => {
                post_num[node as usize] = postorder.len() as u32;
                postorder.push(node);
                stack.pop();
            }
        }
    }
    // Predecessors restricted to reachable nodes, by postorder number.
    let m = postorder.len();
    let mut pred_start = vec![0u32; m + 1];
    for &node in &postorder {
        for &s in &succs[node as usize] {
            pred_start[post_num[s as usize] as usize + 1] += 1;
        }
    }
    for i in 0..m {
        pred_start[i + 1] += pred_start[i];
    }
    let mut fill = pred_start.clone();
    let mut preds = vec![0u32; pred_start[m] as usize];
    for &node in &postorder {
        let from = post_num[node as usize];
        for &s in &succs[node as usize] {
            let to = post_num[s as usize] as usize;
            preds[fill[to] as usize] = from;
            fill[to] += 1;
        }
    }
    // The iteration proper, on postorder numbers: the root is m - 1, and walking up the
    // tree increases the number.
    let root = (m - 1) as u32;
    let mut doms = vec![NONE; m];
    doms[root as usize] = root;
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..root).rev() {
            let ps = &preds[pred_start[b as usize] as usize..pred_start[b as usize + 1] as usize];
            let mut new_idom = NONE;
            for &p in ps {
                if doms[p as usize] == NONE {
                    continue;
                }
                new_idom = if new_idom == NONE {
                    p
                } else {
                    let (mut x, mut y) = (p, new_idom);
                    while x != y {
                        while x < y {
                            x = doms[x as usize];
                        }
                        while y < x {
                            y = doms[y as usize];
                        }
                    }
                    x
                };
            }
            if new_idom != doms[b as usize] {
                doms[b as usize] = new_idom;
                changed = true;
            }
        }
    }
    for b in 0..root {
        let d = doms[b as usize];
        if d != NONE {
            idom[postorder[b as usize] as usize] = postorder[d as usize];
        }
    }
    idom
}

impl DomTree {
    /// Computes the dominator tree of `cfg`, rooted at its entry block, with petgraph's
    /// [`simple_fast`]: the reference construction.
    pub fn new(cfg: &Cfg) -> DomTree {
        let n = cfg.len();
        let mut idom = vec![NONE; n];
        if n > 0 {
            let mut graph: DiGraph<(), (), u32> = DiGraph::with_capacity(n, n + n / 2);
            for _ in 0..n {
                graph.add_node(());
            }
            for from in 0..n {
                for &to in cfg.succ_nodes(from) {
                    graph.add_edge(NodeIndex::new(from), NodeIndex::new(to as usize), ());
                }
            }
            let doms = simple_fast(&graph, NodeIndex::new(0));
            for (i, slot) in idom.iter_mut().enumerate().skip(1) {
                if let Some(d) = doms.immediate_dominator(NodeIndex::new(i)) {
                    *slot = d.index() as u32;
                }
            }
        }
        DomTree::from_idom(cfg, idom)
    }

    /// The same tree as [`DomTree::new`], computed on the graph's own vectors (see the
    /// module documentation); what the passes and the validator use.
    pub fn new_fast(cfg: &Cfg) -> DomTree {
        DomTree::from_idom(cfg, immediate_dominators(&cfg.succs))
    }

    /// Builds the tree and its numbering from the immediate dominators (`NONE` for the
    /// entry and for unreachable nodes).
    fn from_idom(cfg: &Cfg, idom: Vec<u32>) -> DomTree {
        let n = cfg.len();
        let mut reachable = vec![false; n];
        if n > 0 {
            reachable[0] = true;
        }
        for (i, &d) in idom.iter().enumerate() {
            if d != NONE {
                reachable[i] = true;
            }
        }
        let mut children: Vec<SmallVec<[u32; 2]>> = vec![SmallVec::new(); n];
        for (i, &d) in idom.iter().enumerate() {
            if d != NONE {
                children[d as usize].push(i as u32);
            }
        }
        // Unreachable blocks keep pre = MAX and post = 0, which makes every block
        // dominate them and them dominate no reachable block (as in NIR).
        let mut pre = vec![NONE; n];
        let mut post = vec![0u32; n];
        let mut preorder = Vec::with_capacity(n);
        if n > 0 {
            let mut counter = 0u32;
            let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
            pre[0] = counter;
            preorder.push(0);
            counter += 1;
            while let Some(top) = stack.last_mut() {
                let (node, next) = *top;
                if let Some(&c) = children[node as usize].get(next) {
                    top.1 += 1;
                    pre[c as usize] = counter;
                    counter += 1;
                    preorder.push(c);
                    stack.push((c, 0));
                } else {
                    post[node as usize] = counter;
                    counter += 1;
                    stack.pop();
                }
            }
        }
        debug_assert!(pre.iter().zip(&reachable).all(|(&p, &r)| (p != NONE) == r));
        DomTree {
            node_of: cfg.node_of.clone(),
            blocks: cfg.blocks.clone(),
            idom,
            pre,
            post,
            preorder,
            children,
        }
    }

    /// Computes the graph and the dominator tree of `func` ([`DomTree::new`]).
    pub fn of(func: &Function) -> (Cfg, DomTree) {
        let cfg = Cfg::new(func);
        let dom = DomTree::new(&cfg);
        (cfg, dom)
    }

    /// Computes the graph and the dominator tree of `func` ([`DomTree::new_fast`]).
    pub fn of_fast(func: &Function) -> (Cfg, DomTree) {
        let cfg = Cfg::new(func);
        let dom = DomTree::new_fast(&cfg);
        (cfg, dom)
    }

    fn node(&self, block: Block) -> Option<usize> {
        match self.node_of.get(block.index()) {
            Some(&n) if n != NONE => Some(n as usize),
            _ => None,
        }
    }

    /// Whether `block` is reachable from the entry block.
    pub fn is_reachable(&self, block: Block) -> bool {
        self.node(block).is_some_and(|n| self.pre[n] != NONE)
    }

    /// Whether `a` dominates `b` (every block dominates itself). Follows NIR for
    /// unreachable blocks: any block dominates an unreachable `b`, and an unreachable
    /// `a` dominates no reachable block. Blocks outside the tree dominate nothing and
    /// are dominated by nothing.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        match (self.node(a), self.node(b)) {
            (Some(a), Some(b)) => self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a],
            _ => false,
        }
    }

    /// The immediate dominator of `block` (`None` for the entry block and for
    /// unreachable blocks).
    pub fn idom(&self, block: Block) -> Option<Block> {
        let n = self.node(block)?;
        match self.idom[n] {
            NONE => None,
            d => Some(self.blocks[d as usize]),
        }
    }

    /// The blocks `block` immediately dominates, in program order.
    pub fn children(&self, block: Block) -> impl Iterator<Item = Block> + '_ {
        let list = self
            .node(block)
            .map(|n| &self.children[n][..])
            .unwrap_or(&[]);
        list.iter().map(|&c| self.blocks[c as usize])
    }

    /// The reachable blocks in a depth-first preorder of the dominator tree (children
    /// in program order): every block comes after all of its dominators.
    pub fn preorder(&self) -> impl Iterator<Item = Block> + '_ {
        self.preorder.iter().map(|&n| self.blocks[n as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::function::Jump;
    use crate::types::Type;

    /// b0; if { b1 } else { b2 }; b3; loop { b4; if { b5 break } else { b6 }; b7 }; b8
    fn sample() -> (Function, Vec<Block>) {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        b.push_else(i);
        b.pop_if(i);
        let l = b.push_loop();
        let c2 = b.imm_bool(false);
        let j = b.push_if(c2);
        b.jump(Jump::Break);
        b.pop_if(j);
        b.pop_loop(l);
        let _ = b.undef(Type::U32);
        let blocks = f.blocks_in_order();
        (f, blocks)
    }

    #[test]
    fn cfg_matches_function_successors() {
        let (f, blocks) = sample();
        let cfg = Cfg::new(&f);
        assert_eq!(cfg.blocks(), &blocks[..]);
        for &b in &blocks {
            let mine: Vec<Block> = cfg.successors(b).collect();
            let theirs: Vec<Block> = f.successors(b).into_iter().collect();
            assert_eq!(mine, theirs, "successors of {b:?}");
        }
        let preds = f.predecessors();
        for &b in &blocks {
            let mine: Vec<Block> = cfg.predecessors(b).collect();
            assert_eq!(mine, preds[&b].to_vec(), "predecessors of {b:?}");
        }
    }

    #[test]
    fn dominance_of_if_and_loop() {
        let (f, bl) = sample();
        // bl: b0 (entry), then, else, merge, header, inner-then (break), inner-else,
        // latch, after-loop.
        assert_eq!(bl.len(), 9);
        let (cfg, dom) = DomTree::of(&f);
        let [b0, t, e, m, h, it, ie, latch, after] = bl[..] else {
            unreachable!()
        };
        assert!(dom.dominates(b0, after));
        assert!(!dom.dominates(t, m));
        assert!(!dom.dominates(e, m));
        assert_eq!(dom.idom(m), Some(b0));
        assert_eq!(dom.idom(h), Some(m));
        // The latch is only reached through the inner else-block.
        assert_eq!(dom.idom(latch), Some(ie));
        assert!(dom.dominates(h, latch));
        assert!(!dom.dominates(it, latch));
        // The only way out of the loop is the break in the inner then-block.
        assert_eq!(dom.idom(after), Some(it));
        assert!(dom.dominates(h, after));
        assert!(dom.dominates(h, h));
        assert!(!dom.dominates(after, h));
        assert_eq!(cfg.predecessors(h).collect::<Vec<_>>(), vec![m, latch]);
        let order: Vec<Block> = dom.preorder().collect();
        assert_eq!(order.len(), 9);
        for (i, &x) in order.iter().enumerate() {
            if let Some(d) = dom.idom(x) {
                assert!(order[..i].contains(&d));
            }
        }
    }

    /// petgraph's immediate dominators of a graph given by successor lists.
    fn petgraph_idoms(succs: &[SmallVec<[u32; 2]>]) -> Vec<u32> {
        let n = succs.len();
        let mut graph: DiGraph<(), (), u32> = DiGraph::new();
        for _ in 0..n {
            graph.add_node(());
        }
        for (from, out) in succs.iter().enumerate() {
            for &to in out {
                graph.add_edge(NodeIndex::new(from), NodeIndex::new(to as usize), ());
            }
        }
        let doms = simple_fast(&graph, NodeIndex::new(0));
        (0..n)
            .map(|i| {
                doms.immediate_dominator(NodeIndex::new(i))
                    .map_or(NONE, |d| d.index() as u32)
            })
            .collect()
    }

    #[test]
    fn vector_dominators_match_petgraph_on_arbitrary_graphs() {
        // Arbitrary graphs, irreducible ones and unreachable nodes included: a superset
        // of what structured control flow produces (the `verify` crate checks the
        // structured shaders of its generator too).
        fn prop(n: u8, edges: Vec<(u8, u8)>, chain: bool) -> bool {
            let n = (n % 40) as usize + 1;
            let mut succs: Vec<SmallVec<[u32; 2]>> = vec![SmallVec::new(); n];
            if chain {
                for i in 1..n {
                    succs[i - 1].push(i as u32);
                }
            }
            for (a, b) in edges {
                let (a, b) = (a as usize % n, b as u32 % n as u32);
                if !succs[a].contains(&b) {
                    succs[a].push(b);
                }
            }
            immediate_dominators(&succs) == petgraph_idoms(&succs)
        }
        let tests = std::env::var("QC_TESTS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(500);
        quickcheck::QuickCheck::new()
            .rng(quickcheck::Gen::from_size_and_seed(60, 0xd0_3a_11))
            .tests(tests)
            .max_tests(tests.max(10_000))
            .quickcheck(prop as fn(u8, Vec<(u8, u8)>, bool) -> bool);
    }

    #[test]
    fn vector_dominators_of_an_irreducible_loop() {
        // 0 -> 1, 0 -> 2, 1 <-> 2, 2 -> 3; 4 unreachable.
        let succs: Vec<SmallVec<[u32; 2]>> = vec![
            SmallVec::from_slice(&[1, 2]),
            SmallVec::from_slice(&[2]),
            SmallVec::from_slice(&[1, 3]),
            SmallVec::new(),
            SmallVec::from_slice(&[0]),
        ];
        assert_eq!(immediate_dominators(&succs), vec![NONE, 0, 0, 2, NONE]);
    }

    #[test]
    fn fast_tree_equals_the_petgraph_tree() {
        let (f, blocks) = sample();
        let cfg = Cfg::new(&f);
        let (a, b) = (DomTree::new(&cfg), DomTree::new_fast(&cfg));
        assert_eq!(a.idom, b.idom);
        assert_eq!(a.preorder, b.preorder);
        for &x in &blocks {
            for &y in &blocks {
                assert_eq!(a.dominates(x, y), b.dominates(x, y));
            }
        }
    }

    #[test]
    fn unreachable_blocks_follow_nir() {
        // loop { b1 break }; b2 is reachable; an if whose branches both break makes
        // the block after it unreachable.
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let l = b.push_loop();
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        b.jump(Jump::Break);
        b.push_else(i);
        b.jump(Jump::Break);
        b.pop_if(i);
        let dead = b.current_block();
        b.pop_loop(l);
        let (cfg, dom) = DomTree::of(&f);
        assert!(!dom.is_reachable(dead));
        assert_eq!(cfg.predecessors(dead).count(), 0);
        let entry = cfg.entry().unwrap();
        assert!(dom.dominates(entry, dead));
        assert!(dom.dominates(dead, dead));
        assert!(!dom.dominates(dead, entry));
        assert_eq!(dom.idom(dead), None);
    }
}
