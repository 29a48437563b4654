//! Stable sorting through one shared copy of the standard library's sort.
//!
//! Every `sort_by_key` or `sort_by` with a closure of its own is a separate copy of `std`'s
//! sort, several kilobytes of wasm each, and the web bundle carried about a dozen. These
//! helpers map each element to a `u64` key and sort `(key, position)` pairs instead: one copy
//! for the whole program, and equal keys left in input order, exactly as a stable sort
//! leaves them.

/// The positions `0..n` ordered by `key`, equal keys by position.
pub fn order_by(n: usize, key: impl Fn(usize) -> u64) -> Vec<usize> {
    let mut pairs: Vec<(u64, usize)> = (0..n).map(|i| (key(i), i)).collect();
    // Unstable is stable here: no two pairs are equal (positions differ).
    pairs.sort_unstable();
    pairs.into_iter().map(|(_, i)| i).collect()
}

/// Sorts `items` by `key`, keeping items with equal keys in their order (a stable sort).
pub fn sort_by_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    let order = order_by(items.len(), |i| key(&items[i]));
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// `values` sorted, each once (through the one shared sort, see the module's note).
pub fn sorted_unique(values: &[u64]) -> Vec<u64> {
    let mut out: Vec<u64> = order_by(values.len(), |i| values[i]).into_iter().map(|i| values[i]).collect();
    out.dedup();
    out
}

/// Sorts `items` and drops repeats, for the short lists of names a text or a step lists:
/// an insertion sort (a few items), so that sorting strings adds no copy of `std`'s sort to
/// the bundle.
pub fn sort_unique_short<T: Ord>(items: &mut Vec<T>) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && items[j - 1] > items[j] {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
    items.dedup();
}

/// For each item, the position of the first item equal to it (its own position if none
/// comes before). Grouped through the one shared sort by a hash of each item, then compared
/// within a group, so a thousand items cost a few thousand comparisons, not half a million
/// (a hostile link's keys, see `Query::repeated`).
pub fn first_places(items: &[&str]) -> Vec<usize> {
    // FNV-1a: a few instructions a byte; a collision only puts two items in one group.
    let hash = |s: &str| {
        s.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
    };
    let hashes: Vec<u64> = items.iter().map(|s| hash(s)).collect();
    let order = order_by(items.len(), |i| hashes[i]);
    let mut first: Vec<usize> = (0..items.len()).collect();
    // Within a group, positions ascend: each item looks only at those before it.
    for group in order.chunk_by(|&a, &b| hashes[a] == hashes[b]) {
        for (j, &i) in group.iter().enumerate() {
            if let Some(&e) = group[..j].iter().find(|&&e| items[e] == items[i]) {
                first[i] = first[e];
            }
        }
    }
    first
}

/// A `u64` that orders as [`f64::total_cmp`] orders floats (-NaN < -inf < … < -0 < +0 < …
/// < +inf < NaN).
pub fn f64_key(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 { !bits } else { bits | 1 << 63 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_places_agree_with_a_pairwise_scan() {
        for seed in 1..40 {
            let words: Vec<String> =
                numbers(seed as usize % 23, seed).into_iter().map(|x| format!("k{}", x % 9)).collect();
            let items: Vec<&str> = words.iter().map(String::as_str).collect();
            let want: Vec<usize> =
                (0..items.len()).map(|i| (0..=i).find(|&e| items[e] == items[i]).unwrap_or(i)).collect();
            assert_eq!(first_places(&items), want, "{items:?}");
        }
        assert_eq!(first_places(&["", "a", "", "a", "b"]), [0, 1, 0, 1, 4]);
    }

    #[test]
    fn sorted_unique_and_short_sorts_agree_with_std() {
        for seed in 1..40 {
            let v: Vec<u64> = numbers(seed as usize % 17, seed).into_iter().map(|x| x % 7).collect();
            let mut want = v.clone();
            want.sort_unstable();
            want.dedup();
            assert_eq!(sorted_unique(&v), want, "{v:?}");
            let mut words: Vec<String> = v.iter().map(|x| format!("w{x}")).collect();
            let mut std_words = words.clone();
            std_words.sort();
            std_words.dedup();
            sort_unique_short(&mut words);
            assert_eq!(words, std_words);
        }
    }

    /// A small deterministic generator, so the test needs no crate.
    fn numbers(n: usize, seed: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                x >> 33
            })
            .collect()
    }

    #[test]
    fn orders_like_a_stable_sort() {
        for seed in 0..20 {
            // Few distinct keys: many ties, whose order is what a stable sort promises.
            let items: Vec<(u64, usize)> = numbers(200, seed).into_iter().map(|k| k % 7).zip(0..).collect();
            let mut want = items.clone();
            want.sort_by_key(|&(k, _)| k);
            let mut got = items.clone();
            sort_by_key(&mut got, |&(k, _)| k);
            assert_eq!(got, want);
            let order = order_by(items.len(), |i| items[i].0);
            assert_eq!(order.iter().map(|&i| items[i]).collect::<Vec<_>>(), want);
        }
    }

    #[test]
    fn float_keys_order_as_total_cmp() {
        let mut xs =
            vec![3.5, -0.0, 0.0, f64::NAN, -f64::NAN, f64::INFINITY, -1e-300, f64::NEG_INFINITY, 2.0, -2.0];
        xs.extend(numbers(100, 9).into_iter().map(|n| (n as f64 - 1e9) / 7.0));
        let mut want = xs.clone();
        want.sort_by(f64::total_cmp);
        sort_by_key(&mut xs, |&x| f64_key(x));
        assert_eq!(
            xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }
}
