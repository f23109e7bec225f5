//! Prompt-cache warm-up: per model, episodes whose requests share a cacheable prefix start in
//! two waves, so that the first reply writes the cache and the rest read it instead of each
//! writing it again: a tool set's first unit before that set's other units (tools and charter
//! are the shared prefix), and each unit's first trial before its siblings. Other units'
//! episodes fill the model's slots meanwhile.

use crate::suite::case::Variant;
use crate::suite::manifest::{ModelEntry, ProviderKind};
use crate::trial::cache_role::{CacheRole, CacheWritten};
use std::sync::Arc;

/// OpenAI caches a prompt's prefix by itself from this many tokens on; shorter prompts gain
/// nothing from waiting.
const OPENAI_MIN_CACHED_TOKENS: usize = 1024;

/// Whether this model's requests for this unit share a prefix the API will cache.
pub fn caches(model: &ModelEntry, system: &str, variant: &Variant) -> bool {
    if !model.prompt_cache {
        return false;
    }
    match model.provider {
        ProviderKind::Anthropic => true,
        ProviderKind::Openai => {
            // Four characters a token, the same estimate the plan prints.
            let chars = system.len() + variant.seed.iter().map(|m| m.content.len()).sum::<usize>();
            chars / 4 >= OPENAI_MIN_CACHED_TOKENS
        }
        ProviderKind::Scripted => false,
    }
}

/// Hands out cache roles in dispatch order, for one model. Two levels, because the cached
/// prefix is tools, then the charter, then the seeded turns: units offering the same tools share
/// the tools and charter, and a unit's trials share everything up to their first reply.
/// The first episode of a tool set opens that set's latch; the first episode of each other unit
/// with those tools waits for it, then opens its unit's latch; the unit's remaining episodes
/// wait for that.
pub struct WarmUp {
    /// Per unit: its prefix group (tool set), or None when the unit is not cached.
    groups: Vec<Option<usize>>,
    group_latch: Vec<Option<Arc<CacheWritten>>>,
    unit_latch: Vec<Option<Arc<CacheWritten>>>,
}

impl WarmUp {
    /// `units` are (caches, tool names) per unit.
    pub fn new(units: &[(bool, &[String])]) -> WarmUp {
        let mut sets: Vec<&[String]> = Vec::new();
        let groups = units
            .iter()
            .map(|&(caches, tools)| {
                caches.then(|| match sets.iter().position(|s| *s == tools) {
                    Some(g) => g,
                    None => {
                        sets.push(tools);
                        sets.len() - 1
                    }
                })
            })
            .collect();
        WarmUp {
            groups,
            group_latch: vec![None; sets.len()],
            unit_latch: vec![None; units.len()],
        }
    }

    /// Warm-ups first: each group's first episode, then each other unit's first, then the
    /// rest, each part in the given (longest-first) order. An episode dispatched before the one
    /// it waits for would hold a place in flight while it waits.
    pub fn order(&self, order: Vec<(usize, u32)>) -> Vec<(usize, u32)> {
        let mut group_seen = vec![false; self.group_latch.len()];
        let mut unit_seen = vec![false; self.unit_latch.len()];
        let (mut groups, mut units, mut rest) = (Vec::new(), Vec::new(), Vec::new());
        for (ui, trial) in order {
            match self.groups[ui] {
                Some(g) if !group_seen[g] => {
                    group_seen[g] = true;
                    unit_seen[ui] = true;
                    groups.push((ui, trial));
                }
                Some(_) if !unit_seen[ui] => {
                    unit_seen[ui] = true;
                    units.push((ui, trial));
                }
                _ => rest.push((ui, trial)),
            }
        }
        groups.extend(units);
        groups.extend(rest);
        groups
    }

    /// The role of the next episode dispatched for unit `ui`.
    pub fn role(&mut self, ui: usize) -> CacheRole {
        let Some(g) = self.groups[ui] else {
            return CacheRole::default();
        };
        if let Some(unit) = &self.unit_latch[ui] {
            return CacheRole {
                waits_for: Some(unit.clone()),
                opens: Vec::new(),
            };
        }
        let unit = Arc::new(CacheWritten::default());
        self.unit_latch[ui] = Some(unit.clone());
        match &self.group_latch[g] {
            Some(group) => CacheRole {
                waits_for: Some(group.clone()),
                opens: vec![unit],
            },
            None => {
                let group = Arc::new(CacheWritten::default());
                self.group_latch[g] = Some(group.clone());
                CacheRole {
                    waits_for: None,
                    opens: vec![group, unit],
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_tool_sets_first_unit_goes_first_then_its_other_units_then_every_sibling() {
        let (none, files) = (tools(&[]), tools(&["read_file"]));
        // Units 0 and 2 share no tools, unit 1 reads files, unit 3 is not cached.
        let units = [
            (true, &none[..]),
            (true, &files[..]),
            (true, &none[..]),
            (false, &none[..]),
        ];
        let mut w = WarmUp::new(&units);
        let order: Vec<(usize, u32)> = (1..=2).flat_map(|t| (0..4).map(move |u| (u, t))).collect();
        let order = w.order(order);
        assert_eq!(
            order,
            [
                (0, 1),
                (1, 1),
                (2, 1),
                (3, 1),
                (0, 2),
                (1, 2),
                (2, 2),
                (3, 2)
            ]
        );
        let roles: Vec<CacheRole> = order.iter().map(|&(u, _)| w.role(u)).collect();
        // The tool sets' first units wait for nothing and open their set and their unit.
        assert!(roles[0].waits_for.is_none() && roles[0].opens.len() == 2);
        assert!(roles[1].waits_for.is_none() && roles[1].opens.len() == 2);
        // Unit 2 waits for unit 0's reply (same tools, same charter), then opens its own.
        assert!(Arc::ptr_eq(
            roles[2].waits_for.as_ref().unwrap(),
            &roles[0].opens[0]
        ));
        assert_eq!(roles[2].opens.len(), 1);
        // The uncached unit takes part in nothing.
        assert!(roles[3].waits_for.is_none() && roles[3].opens.is_empty());
        // Siblings wait for their own unit's first trial.
        assert!(Arc::ptr_eq(
            roles[4].waits_for.as_ref().unwrap(),
            &roles[0].opens[1]
        ));
        assert!(Arc::ptr_eq(
            roles[6].waits_for.as_ref().unwrap(),
            &roles[2].opens[0]
        ));
        assert!(roles[7].waits_for.is_none());
    }

    #[tokio::test]
    async fn a_latch_holds_its_waiters_until_opened_then_wakes_them_and_stays_open() {
        use std::time::Duration;
        // Bounded, so a latch that never wakes fails the test instead of hanging it.
        let bound = Duration::from_secs(10);
        let latch = Arc::new(CacheWritten::default());
        let waiter = tokio::spawn({
            let latch = latch.clone();
            async move { latch.wait().await }
        });
        // Closed: the waiter is still waiting well after it started.
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(
            !waiter.is_finished(),
            "a closed latch let its waiter through"
        );
        drop(crate::trial::cache_role::OpensOnDrop(vec![latch.clone()]));
        tokio::time::timeout(bound, waiter)
            .await
            .expect("opening the latch did not wake its waiter")
            .unwrap();
        // Open stays open: a later wait returns at once.
        tokio::time::timeout(Duration::from_millis(100), latch.wait())
            .await
            .expect("an opened latch made a later waiter wait");
    }
}
