//! The Büchi game on the core's graph (see the `perpetual` module): the winner must reach an
//! idle position again and again. Nodes are numbered; a node is the loser's or the winner's.

/// The core's moves, forwards and backwards (each move once, so a position two moves reach
/// has two edges).
pub(super) struct Graph {
    successors: Vec<Vec<u32>>,
    predecessors: Vec<Vec<u32>>,
}

impl Graph {
    pub(super) fn new(nodes: usize, edges: &[(u32, u32)]) -> Graph {
        let mut successors = vec![Vec::new(); nodes];
        let mut predecessors = vec![Vec::new(); nodes];
        for &(from, to) in edges {
            successors[from as usize].push(to);
            predecessors[to as usize].push(from);
        }
        Graph {
            successors,
            predecessors,
        }
    }

    /// The winner's attractor to the `idle` nodes within `inside`: for each node, the steps
    /// in which the winner forces an idle node (`None` where it cannot). A winner's node takes
    /// its nearest successor, a loser's node (`loses`) its farthest.
    pub(super) fn reach_idle(
        &self,
        inside: &[bool],
        idle: &dyn Fn(usize) -> bool,
        loses: &dyn Fn(usize) -> bool,
    ) -> Vec<Option<u16>> {
        let n = inside.len();
        let mut steps: Vec<Option<u16>> = vec![None; n];
        let mut left: Vec<usize> = (0..n).map(|x| self.successors[x].len()).collect();
        let mut queue = std::collections::VecDeque::new();
        for x in 0..n {
            if inside[x] && idle(x) {
                steps[x] = Some(0);
                queue.push_back(x);
            }
        }
        while let Some(x) = queue.pop_front() {
            let next = steps[x].expect("a queued node has its step") + 1;
            for &p in &self.predecessors[x] {
                let p = p as usize;
                if !inside[p] || steps[p].is_some() {
                    continue;
                }
                if loses(p) {
                    left[p] -= 1;
                    if left[p] > 0 {
                        continue;
                    }
                }
                steps[p] = Some(next);
                queue.push_back(p);
            }
        }
        steps
    }

    /// Takes `out` away from `inside`, with every node the loser can force into it: a loser's
    /// node with one successor taken away, a winner's node with all of them.
    pub(super) fn take_away(
        &self,
        inside: &mut [bool],
        out: Vec<usize>,
        loses: &dyn Fn(usize) -> bool,
    ) {
        let mut left: Vec<usize> = (0..inside.len())
            .map(|x| {
                self.successors[x]
                    .iter()
                    .filter(|&&s| inside[s as usize])
                    .count()
            })
            .collect();
        for &x in &out {
            inside[x] = false;
        }
        let mut queue: std::collections::VecDeque<usize> = out.into();
        while let Some(x) = queue.pop_front() {
            for &p in &self.predecessors[x] {
                let p = p as usize;
                if !inside[p] {
                    continue;
                }
                if !loses(p) {
                    left[p] -= 1;
                    if left[p] > 0 {
                        continue;
                    }
                }
                inside[p] = false;
                queue.push_back(p);
            }
        }
    }
}
