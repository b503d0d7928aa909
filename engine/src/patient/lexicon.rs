//! The condition lexicon: clinical concepts with the phrases that name them and how
//! they relate (a neonate is a child; a child is not an adult; dialysis is kidney
//! failure). Patterns are matched against [`normalize_term`](crate::text::normalize_term)
//! forms as whole words, so "child" does not match "childbirth".

/// A concept the lexicon knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Concept {
    Neonate,
    Infant,
    Child,
    /// From 10 to 19 years of age (WHO): children of 10 to 17 and adults of 18 and 19.
    Adolescent,
    Adult,
    /// Young people ("young adults", "younger patients"): under 40, never the elderly.
    Young,
    /// Of middle age: from 45 to 64 years, past young and before old.
    MiddleAged,
    Elderly,
    Male,
    Female,
    Pregnancy,
    FirstTrimester,
    SecondTrimester,
    ThirdTrimester,
    PlanningPregnancy,
    Lactation,
    RenalImpairment,
    SevereRenalImpairment,
    Dialysis,
    HepaticImpairment,
    /// Mild hepatic impairment (Child-Pugh class A).
    MildHepaticImpairment,
    /// Moderate hepatic impairment (Child-Pugh class B).
    ModerateHepaticImpairment,
    /// Severe hepatic impairment (Child-Pugh class C).
    SevereHepaticImpairment,
    Immunosuppression,
    /// A chronic disease of the lungs or airways, of which asthma and COPD are kinds.
    LungDisease,
    Asthma,
    Copd,
    /// A left ventricular ejection fraction of 40% or less (HFrEF, left ventricular
    /// systolic dysfunction).
    ReducedEjectionFraction,
    /// Epilepsy and the other disorders of recurrent seizures.
    SeizureDisorder,
    /// A prolonged QT interval (a QTc of 470 ms or more, congenital long QT syndrome).
    QtProlongation,
    /// A disorder of clotting that makes bleeding likely: haemophilia, von Willebrand
    /// disease and the other coagulation disorders.
    BleedingDisorder,
}

impl Concept {
    /// Whether it is a disease or an impairment, something a question may ask to treat,
    /// not who the patient is (an age, a sex, a pregnancy).
    pub fn is_disease(self) -> bool {
        matches!(
            self,
            Concept::RenalImpairment
                | Concept::SevereRenalImpairment
                | Concept::Dialysis
                | Concept::HepaticImpairment
                | Concept::MildHepaticImpairment
                | Concept::ModerateHepaticImpairment
                | Concept::SevereHepaticImpairment
                | Concept::Immunosuppression
                | Concept::LungDisease
                | Concept::Asthma
                | Concept::Copd
                | Concept::ReducedEjectionFraction
                | Concept::SeizureDisorder
                | Concept::QtProlongation
                | Concept::BleedingDisorder
        )
    }

    /// The concept's usual condition phrase ("in children", "in pregnancy").
    pub fn phrase(self) -> &'static str {
        match self {
            Concept::Neonate => "in neonates",
            Concept::Infant => "in infants",
            Concept::Child => "in children",
            Concept::Adolescent => "in adolescents",
            Concept::Adult => "in adults",
            Concept::Young => "in young people",
            Concept::MiddleAged => "in middle-aged adults",
            Concept::Elderly => "in older adults",
            Concept::Male => "in men",
            Concept::Female => "in women",
            Concept::Pregnancy => "in pregnancy",
            Concept::FirstTrimester => "in the first trimester",
            Concept::SecondTrimester => "in the second trimester",
            Concept::ThirdTrimester => "in the third trimester",
            Concept::PlanningPregnancy => "planning pregnancy",
            Concept::Lactation => "during breastfeeding",
            Concept::RenalImpairment => "renal impairment",
            Concept::SevereRenalImpairment => "severe renal impairment",
            Concept::Dialysis => "on dialysis",
            Concept::HepaticImpairment => "hepatic impairment",
            Concept::MildHepaticImpairment => "mild hepatic impairment",
            Concept::ModerateHepaticImpairment => "moderate hepatic impairment",
            Concept::SevereHepaticImpairment => "severe hepatic impairment",
            Concept::Immunosuppression => "immunosuppression",
            Concept::LungDisease => "in lung disease",
            Concept::Asthma => "in asthma",
            Concept::Copd => "in COPD",
            Concept::ReducedEjectionFraction => "reduced ejection fraction",
            Concept::SeizureDisorder => "seizure disorder",
            Concept::QtProlongation => "QT prolongation",
            Concept::BleedingDisorder => "bleeding disorder",
        }
    }
}

/// Phrases (in normalised form, matched as whole words) that name each concept.
pub const SYNONYMS: &[(Concept, &[&str])] = &[
    (
        Concept::Neonate,
        &["neonate", "neonates", "neonatal", "newborn", "newborns"],
    ),
    (Concept::Infant, &["infant", "infants", "infancy"]),
    (
        Concept::Child,
        &[
            "child",
            "children",
            "pediatric",
            "paediatric",
            "childhood",
            "boy",
            "girl",
            "kid",
            "kids",
            "toddler",
        ],
    ),
    (
        Concept::Adolescent,
        &[
            "adolescent",
            "adolescents",
            "adolescence",
            "teenager",
            "teenagers",
            "teen",
            "teens",
        ],
    ),
    (Concept::Adult, &["adult", "adults", "adulthood"]),
    (
        Concept::Young,
        &[
            "young adult",
            "young adults",
            "younger adult",
            "younger adults",
            "young people",
            "young patient",
            "young patients",
            "younger patients",
            "young",
        ],
    ),
    (
        Concept::MiddleAged,
        &["middle aged", "middle age", "midlife", "mid life"],
    ),
    (
        Concept::Elderly,
        &[
            "elderly",
            "older adult",
            "older adults",
            "older people",
            "older patient",
            "older patients",
            "geriatric",
            "aged 65",
            "65 years and older",
            "65 year and older",
            "over 65",
        ],
    ),
    (
        Concept::Male,
        &["man", "men", "male", "males", "boy", "boys"],
    ),
    (
        Concept::Female,
        &[
            "woman",
            "women",
            "female",
            "females",
            "girl",
            "girls",
            "mother",
            "mothers",
            "postmenopausal",
        ],
    ),
    (
        Concept::Pregnancy,
        &[
            "pregnancy",
            "pregnancies",
            "pregnant",
            "gestation",
            "gestational",
            "trimester",
            "trimesters",
            "antenatal",
            "prenatal",
            "expectant mother",
            "gravid",
            "intrapartum",
        ],
    ),
    (
        Concept::FirstTrimester,
        &["first trimester", "first-trimester", "early pregnancy"],
    ),
    (
        Concept::SecondTrimester,
        &["second trimester", "second-trimester"],
    ),
    (
        Concept::ThirdTrimester,
        &["third trimester", "third-trimester", "late pregnancy"],
    ),
    (
        Concept::PlanningPregnancy,
        &[
            "plan pregnancy",
            "plans pregnancy",
            "planning pregnancy",
            "plan to conceive",
            "plans to conceive",
            "planning to conceive",
            "trying to conceive",
            "wish to conceive",
            "planning a pregnancy",
            "plan a pregnancy",
            "plans a pregnancy",
        ],
    ),
    (
        Concept::Lactation,
        &[
            "lactation",
            "lactating",
            "breastfeeding",
            "breast feeding",
            "nursing mother",
            "nursing mothers",
        ],
    ),
    (
        Concept::RenalImpairment,
        &[
            "renal impairment",
            "kidney disease",
            "renal disease",
            "renal failure",
            "kidney failure",
            "renal insufficiency",
            "ckd",
            "kidney function",
            "renal function",
            "glomerular filtration",
            "impaired renal",
            "reduced renal",
            "nephropathy",
        ],
    ),
    (
        Concept::SevereRenalImpairment,
        &[
            "severe renal impairment",
            "advanced chronic kidney disease",
            "advanced kidney disease",
            "stage 4 chronic kidney disease",
            "stage 5 chronic kidney disease",
            "stage 4 ckd",
            "stage 5 ckd",
            "end stage renal",
            "end stage kidney",
            "esrd",
            "eskd",
            "severely impaired",
        ],
    ),
    (
        Concept::Dialysis,
        &[
            "dialysis",
            "hemodialysis",
            "haemodialysis",
            "peritoneal dialysis",
        ],
    ),
    (
        Concept::HepaticImpairment,
        &[
            "hepatic impairment",
            "liver disease",
            "cirrhosis",
            "hepatic failure",
            "liver failure",
            "hepatic insufficiency",
            "child pugh",
            "hepatic disease",
            "liver impairment",
            "hepatic decompensation",
            "liver function",
            "hepatic function",
            "liver dysfunction",
            "hepatic dysfunction",
            "impaired hepatic",
            "impaired liver",
            "reduced hepatic",
        ],
    ),
    (
        Concept::MildHepaticImpairment,
        &[
            "mild hepatic impairment",
            "mild liver impairment",
            "mild hepatic insufficiency",
            "mild liver disease",
            "child pugh a",
            "child pugh class a",
        ],
    ),
    (
        Concept::ModerateHepaticImpairment,
        &[
            "moderate hepatic impairment",
            "moderate liver impairment",
            "moderate hepatic insufficiency",
            "moderate liver disease",
            "child pugh b",
            "child pugh class b",
        ],
    ),
    (
        Concept::SevereHepaticImpairment,
        &[
            "severe hepatic impairment",
            "severe liver impairment",
            "severe hepatic insufficiency",
            "severe liver disease",
            "child pugh c",
            "child pugh class c",
            "decompensated cirrhosis",
            "decompensated",
        ],
    ),
    (
        Concept::ReducedEjectionFraction,
        &[
            "reduced ejection fraction",
            "hfref",
            "reduced lvef",
            "low ejection fraction",
            "reduced left ventricular function",
            "impaired left ventricular function",
            "poor left ventricular function",
            "left ventricular dysfunction",
            "left ventricular systolic dysfunction",
            "lv dysfunction",
            "lv systolic dysfunction",
            "reduced lv function",
            "impaired lv function",
            "systolic heart failure",
        ],
    ),
    (
        Concept::Immunosuppression,
        &[
            "immunosuppression",
            "immunosuppressed",
            "immunocompromised",
            "chemotherapy",
            "severe immunosuppression",
            "transplant recipient",
            "high dose corticosteroid",
        ],
    ),
    (
        Concept::LungDisease,
        &[
            "lung disease",
            "lung diseases",
            "pulmonary disease",
            "pulmonary diseases",
            "respiratory disease",
            "respiratory diseases",
            "airway disease",
            "airways disease",
            "airway diseases",
            "reactive airway disease",
            "bronchospastic disease",
        ],
    ),
    (Concept::Asthma, &["asthma", "asthmatic", "asthmatics"]),
    (
        Concept::Copd,
        &[
            "copd",
            "chronic obstructive pulmonary disease",
            "chronic obstructive lung disease",
            "chronic obstructive airway disease",
            "emphysema",
            "chronic bronchitis",
        ],
    ),
    (
        Concept::SeizureDisorder,
        &[
            "seizure disorder",
            "seizure disorders",
            "epilepsy",
            "epileptic",
            "epilepsies",
            "history of seizures",
            "history of seizure",
            "seizure history",
            "convulsive disorder",
            "convulsive disorders",
        ],
    ),
    (
        Concept::QtProlongation,
        &[
            "qt prolongation",
            "qtc prolongation",
            "qt interval prolongation",
            "prolonged qt",
            "prolonged qtc",
            "prolonged qt interval",
            "prolonged qtc interval",
            "long qt",
            "long qt syndrome",
            "long qt syndromes",
        ],
    ),
    (
        Concept::BleedingDisorder,
        &[
            "bleeding disorder",
            "bleeding disorders",
            "coagulation disorder",
            "coagulation disorders",
            "clotting disorder",
            "clotting disorders",
            "coagulopathy",
            "coagulopathies",
            "haemophilia",
            "hemophilia",
            "haemophiliac",
            "hemophiliac",
            "von willebrand disease",
            "von willebrand s disease",
        ],
    ),
];

/// Spans of pregnancy named by their order, and the trimesters they are.
pub const TRIMESTER_SPANS: &[(&str, &str)] = &[
    (
        "after the first trimester",
        "second trimester or third trimester",
    ),
    ("after the second trimester", "third trimester"),
    (
        "before the third trimester",
        "first trimester or second trimester",
    ),
    ("before the second trimester", "first trimester"),
];

/// Concepts that exclude each other: when the patient is one, the other is false.
pub const EXCLUSIVE: &[(Concept, Concept)] = &[
    (Concept::Child, Concept::Adult),
    (Concept::Neonate, Concept::Adult),
    (Concept::Infant, Concept::Adult),
    (Concept::Child, Concept::Elderly),
    (Concept::Neonate, Concept::Elderly),
    (Concept::Neonate, Concept::Adolescent),
    (Concept::Infant, Concept::Adolescent),
    (Concept::Elderly, Concept::Adolescent),
    (Concept::Elderly, Concept::Young),
    (Concept::MiddleAged, Concept::Young),
    (Concept::MiddleAged, Concept::Elderly),
    (Concept::Child, Concept::MiddleAged),
    (Concept::Male, Concept::Female),
    (Concept::Male, Concept::Pregnancy),
    (Concept::Male, Concept::Lactation),
    (Concept::FirstTrimester, Concept::SecondTrimester),
    (Concept::FirstTrimester, Concept::ThirdTrimester),
    (Concept::SecondTrimester, Concept::ThirdTrimester),
    (
        Concept::MildHepaticImpairment,
        Concept::ModerateHepaticImpairment,
    ),
    (
        Concept::MildHepaticImpairment,
        Concept::SevereHepaticImpairment,
    ),
    (
        Concept::ModerateHepaticImpairment,
        Concept::SevereHepaticImpairment,
    ),
];

/// Implications: when the first is true, so is the second.
pub const IMPLIES: &[(Concept, Concept)] = &[
    (Concept::Neonate, Concept::Child),
    (Concept::Infant, Concept::Child),
    (Concept::Elderly, Concept::Adult),
    (Concept::MiddleAged, Concept::Adult),
    (Concept::FirstTrimester, Concept::Pregnancy),
    (Concept::SecondTrimester, Concept::Pregnancy),
    (Concept::ThirdTrimester, Concept::Pregnancy),
    (Concept::Pregnancy, Concept::Female),
    (Concept::Lactation, Concept::Female),
    (Concept::PlanningPregnancy, Concept::Female),
    (Concept::Dialysis, Concept::SevereRenalImpairment),
    (Concept::SevereRenalImpairment, Concept::RenalImpairment),
    (Concept::SevereHepaticImpairment, Concept::HepaticImpairment),
    (
        Concept::ModerateHepaticImpairment,
        Concept::HepaticImpairment,
    ),
    (Concept::MildHepaticImpairment, Concept::HepaticImpairment),
    (Concept::Asthma, Concept::LungDisease),
    (Concept::Copd, Concept::LungDisease),
];

/// Drug classes and common members, so that a patient "who takes oxycodone" satisfies
/// "patients taking opioids". Singular, lower case.
pub const DRUG_CLASSES: &[(&str, &[&str])] = &[
    (
        "opioid",
        &[
            "oxycodone",
            "morphine",
            "hydrocodone",
            "hydromorphone",
            "fentanyl",
            "methadone",
            "buprenorphine",
            "tramadol",
            "codeine",
            "tapentadol",
            "oxymorphone",
            "heroin",
        ],
    ),
    (
        "anticoagulant",
        &[
            "warfarin",
            "apixaban",
            "rivaroxaban",
            "dabigatran",
            "edoxaban",
            "heparin",
            "enoxaparin",
        ],
    ),
    (
        "antiplatelet",
        &["aspirin", "clopidogrel", "prasugrel", "ticagrelor"],
    ),
    (
        "nsaid",
        &[
            "ibuprofen",
            "naproxen",
            "diclofenac",
            "celecoxib",
            "indomethacin",
            "ketorolac",
        ],
    ),
    (
        "ssri",
        &[
            "sertraline",
            "fluoxetine",
            "paroxetine",
            "citalopram",
            "escitalopram",
            "fluvoxamine",
        ],
    ),
    (
        "maoi",
        &[
            "phenelzine",
            "tranylcypromine",
            "selegiline",
            "isocarboxazid",
            "linezolid",
        ],
    ),
    (
        "benzodiazepine",
        &[
            "diazepam",
            "lorazepam",
            "alprazolam",
            "clonazepam",
            "midazolam",
            "chlordiazepoxide",
        ],
    ),
    (
        "corticosteroid",
        &[
            "prednisone",
            "prednisolone",
            "dexamethasone",
            "hydrocortisone",
            "methylprednisolone",
        ],
    ),
    (
        "statin",
        &[
            "atorvastatin",
            "simvastatin",
            "rosuvastatin",
            "pravastatin",
            "lovastatin",
        ],
    ),
    (
        "antiretroviral",
        &[
            "ritonavir",
            "darunavir",
            "efavirenz",
            "dolutegravir",
            "tenofovir",
            "lopinavir",
        ],
    ),
    (
        "chemotherapy",
        &[
            "cisplatin",
            "doxorubicin",
            "cyclophosphamide",
            "methotrexate",
        ],
    ),
];

/// Words that name the same condition (singular, lower case).
pub const SAME_AS: &[(&str, &str)] = &[
    ("seizure", "epilepsy"),
    ("convulsion", "epilepsy"),
    ("wheezing", "bronchospasm"),
    ("asthma", "bronchospasm"),
    ("infarction", "infarct"),
    ("renal", "kidney"),
    ("hepatic", "liver"),
    ("cardiac", "heart"),
    ("pregnant", "pregnancy"),
    ("elderly", "older"),
];

/// Words that tell two otherwise similar conditions apart.
pub const OPPOSITES: &[(&str, &str)] = &[
    ("left", "right"),
    ("low", "high"),
    ("upper", "lower"),
    ("acute", "chronic"),
    ("primary", "secondary"),
    ("primary", "central"),
    ("mild", "severe"),
    ("early", "late"),
    ("active", "inactive"),
    ("positive", "negative"),
    ("first", "second"),
    ("first", "third"),
    ("second", "third"),
    ("hypo", "hyper"),
    ("hypothyroidism", "hyperthyroidism"),
    ("hypotension", "hypertension"),
    ("hypoglycemia", "hyperglycemia"),
    ("hypokalemia", "hyperkalemia"),
    ("male", "female"),
    ("men", "women"),
];
