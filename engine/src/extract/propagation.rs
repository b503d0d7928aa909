//! Propagation: a warning about a drug or class under a condition also gates every
//! recommendation of the drug, of its class members and of combinations that contain it.

use super::*;

/// Figure 2: a warning about X under condition c puts ¬c on every recommendation of X,
/// of the members of X (class membership, transitively; "first-generation
/// cephalosporins" are cephalosporins), and of combinations that contain X. Members
/// also get the warning as their own edge, so that a walk finds it one hop from them.
pub(super) fn propagate_warnings(tuples: &mut Vec<Tuple>, aliases: &[(String, String)]) {
    let mut canon = Aliases::new();
    for (a, b) in aliases {
        canon.join(a, b);
    }
    let mut members: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut surfaces: BTreeMap<String, String> = BTreeMap::new();
    for t in tuples.iter().filter(|t| t.relation == Relation::IsA) {
        let (m, c) = (canon.key(&t.subject), canon.key(&t.object));
        surfaces
            .entry(m.clone())
            .or_insert_with(|| t.subject.clone());
        members.entry(c).or_default().insert(m);
    }
    // The names each warned name reaches (itself, its members, subclasses by head),
    // computed once per name.
    let closure = |subject: &str| -> BTreeSet<String> {
        let mut frontier = vec![subject.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(x) = frontier.pop() {
            if !seen.insert(x.clone()) {
                continue;
            }
            if let Some(ms) = members.get(&x) {
                frontier.extend(ms.iter().cloned());
            }
            for class in members.keys() {
                if class.ends_with(&format!(" {x}")) {
                    frontier.push(class.clone());
                }
            }
        }
        seen
    };
    let mut closures: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Distinct (name, condition phrase) warnings: a long document repeats them.
    let mut warnings: BTreeSet<(String, String)> = BTreeSet::new();
    let mut inherited: Vec<Tuple> = Vec::new();
    let mut inherited_seen: BTreeSet<(String, String, String)> = BTreeSet::new();
    for t in tuples
        .iter()
        .filter(|t| t.relation == Relation::ContraindicatedIn)
    {
        let subject = canon.key(&t.subject);
        let seen = closures
            .entry(subject.clone())
            .or_insert_with(|| closure(&subject));
        for c in &t.conditions {
            for x in seen.iter() {
                warnings.insert((x.clone(), c.phrase.clone()));
                if *x == subject {
                    continue;
                }
                if let Some(surface) = surfaces.get(x) {
                    let key = (x.clone(), normalize_term(&t.object), c.phrase.clone());
                    if inherited_seen.insert(key) {
                        inherited.push(Tuple::new(
                            surface.clone(),
                            Relation::ContraindicatedIn,
                            t.object.clone(),
                            t.conditions.clone(),
                            t.evidence.clone(),
                        ));
                    }
                }
            }
        }
    }
    for t in tuples.iter_mut() {
        if !matches!(t.relation.stance(), Stance::Recommends | Stance::Lists) {
            continue;
        }
        let key = canon.key(&t.object);
        let parts: Vec<&str> = key.split(' ').collect();
        for (x, phrase) in &warnings {
            let combination = key.contains(' ')
                && !x.contains(' ')
                && parts.contains(&x.as_str())
                && t.object.contains(['-', '/']);
            // "breath tests" reaches "urea breath test": a warned name of two or more
            // words that ends an option's name.
            let head = x.contains(' ') && key.ends_with(&format!(" {x}"));
            let c = Condition::excludes(phrase.clone());
            if (*x == key || combination || head) && !t.conditions.contains(&c) {
                t.conditions.push(c);
            }
        }
    }
    tuples.extend(inherited);
}
