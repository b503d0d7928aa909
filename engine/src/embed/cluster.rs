//! UPGMA (average-linkage) clustering of embeddings, as CLAIMS uses to merge entities
//! that name the same thing: clusters merge while the mean cosine similarity between
//! their members is at least the threshold (0.8 in the paper).

use super::cosine;

/// Groups `vectors` into clusters (lists of indices, each sorted, clusters ordered by
/// their first index). Average linkage with the Lance–Williams update, O(n²) memory.
pub fn upgma(vectors: &[Vec<f32>], threshold: f32) -> Vec<Vec<usize>> {
    let n = vectors.len();
    let mut members: Vec<Option<Vec<usize>>> = (0..n).map(|i| Some(vec![i])).collect();
    let mut sim = vec![f32::NEG_INFINITY; n * n];
    for i in 0..n {
        for j in (i + 1)..n {
            let s = cosine(&vectors[i], &vectors[j]);
            sim[i * n + j] = s;
            sim[j * n + i] = s;
        }
    }
    loop {
        // The most similar pair of live clusters.
        let mut best: Option<(usize, usize, f32)> = None;
        for i in 0..n {
            if members[i].is_none() {
                continue;
            }
            for j in (i + 1)..n {
                if members[j].is_none() {
                    continue;
                }
                let s = sim[i * n + j];
                if best.is_none_or(|(_, _, b)| s > b) {
                    best = Some((i, j, s));
                }
            }
        }
        let Some((i, j, s)) = best else { break };
        if s.is_nan() || s < threshold {
            break;
        }
        let (size_i, size_j) = (
            members[i].as_ref().map_or(0, Vec::len) as f32,
            members[j].as_ref().map_or(0, Vec::len) as f32,
        );
        for k in 0..n {
            if k == i || k == j || members[k].is_none() {
                continue;
            }
            let merged = (size_i * sim[k * n + i] + size_j * sim[k * n + j]) / (size_i + size_j);
            sim[k * n + i] = merged;
            sim[i * n + k] = merged;
        }
        let moved = members[j].take().unwrap_or_default();
        if let Some(m) = members[i].as_mut() {
            m.extend(moved);
            m.sort_unstable();
        }
    }
    members.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(angle_degrees: f32) -> Vec<f32> {
        let r = angle_degrees.to_radians();
        vec![r.cos(), r.sin()]
    }

    #[test]
    fn close_vectors_merge_and_far_ones_do_not() {
        // Angles 0°, 10°, 30° and 90°: cos(10°) = 0.985, cos(20°) = 0.940, cos(30°) =
        // 0.866. First 0° and 10° merge (0.985); then {0°,10°} with 30° averages
        // (0.866 + 0.940) / 2 = 0.903 ≥ 0.9, so they merge; 90° stays alone.
        let v = [unit(0.0), unit(10.0), unit(30.0), unit(90.0)];
        assert_eq!(upgma(&v, 0.9), vec![vec![0, 1, 2], vec![3]]);
        // At 0.95 only the first pair merges.
        assert_eq!(upgma(&v, 0.95), vec![vec![0, 1], vec![2], vec![3]]);
    }

    #[test]
    fn empty_and_zero_vectors_are_handled() {
        assert!(upgma(&[], 0.8).is_empty());
        let zeros = [vec![0.0, 0.0], vec![0.0, 0.0]];
        assert_eq!(upgma(&zeros, 0.8), vec![vec![0], vec![1]]);
    }
}
