//! The Sudoku Explainer scale: the techniques the rater knows, in SE's order, each with the
//! rating SE gives it and its name (see the module docs of [`crate::rating`] for the table).

/// A technique of the SE scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum SeTechnique {
    FullHouse,
    HiddenSingleBox,
    HiddenSingleLine,
    DirectPointing,
    DirectClaiming,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriple,
    Pointing,
    Claiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriple,
    Swordfish,
    HiddenTriple,
    Skyscraper,
    TwoStringKite,
    TurbotCrane,
    XyWing,
    EmptyRectangle,
    GroupedTurbot,
    XyzWing,
    UniqueRectangle,
    /// A unique rectangle of type 3 rated 4.6 (a naked pair or a hidden triple).
    UniqueRectangle46,
    /// A unique rectangle of type 3 rated 4.7 (a naked triple or a hidden quad).
    UniqueRectangle47,
    /// A unique rectangle of type 3 rated 4.8 (a naked quad).
    UniqueRectangle48,
    /// A unique loop of six cells or more (4.6 to 5.6), of type `kind` (1 to 4).
    UniqueLoop {
        /// Its rating, in tenths.
        tenths: u32,
        /// Its type.
        kind: u8,
    },
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    ThreeSkyscrapers,
    WxyzWing,
    ThreeStrongLinks,
    WxyzWingOfThree,
    ThreeStrongLinksBoxRowColumn,
    BugType1,
    /// Three strong links, one of them or more with a group of places (5.7).
    ThreeStrongLinksGrouped,
    BugType2,
    BugType4,
    /// BUG type 3 with a naked pair (5.8).
    BugType3Pair,
    /// BUG type 3 with a naked triple (5.9).
    BugType3Triple,
    /// BUG type 3 with a naked quad (6.0).
    BugType3Quad,
    /// BUG type 3 with a naked set of five (6.1).
    BugType3Five,
    VwxyzWingOfFive,
    /// BUG type 3 with a naked set of six (6.2).
    BugType3Six,
    AlignedPairExclusion,
    VwxyzWing,
    VwxyzWingOfThree,
    /// A step of SE's chaining list: a forcing chain, bidirectional cycle, Nishio chain,
    /// cell or region forcing chain or dynamic forcing chain, rated by its kind and its
    /// length, or an aligned triple exclusion (7.5), which SE tries among them.
    Chain {
        /// Its rating, in tenths.
        tenths: u32,
        /// Its kind.
        kind: ChainKind,
    },
}

/// The kinds of SE's chains: forcing chains and bidirectional cycles, Nishio chains, cell
/// and region forcing chains, and dynamic forcing chains; and aligned triple exclusion,
/// which SE's chaining list tries between the first and Nishio chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChainKind {
    /// A cycle of one digit, through its strong and weak links (6.5 and up).
    XCycle,
    /// A cycle through cells of two candidates (6.5 and up).
    YCycle,
    /// A chain of one digit from a candidate to its opposite (6.6 and up).
    ForcingXChain,
    /// A cycle with both kinds of link (7.0 and up).
    Cycle,
    /// A chain with both kinds of link from a candidate to its opposite (7.0 and up).
    ForcingChain,
    /// Aligned triple exclusion (7.5): not a chain, but SE tries it among them, after
    /// forcing chains and cycles, at a fixed rating.
    AlignedTripleExclusion,
    /// A candidate whose digit, followed alone with each place taken out of the grid as it
    /// goes, comes out both on and off somewhere when the candidate is on, or when it is
    /// off (7.5 and up).
    NishioForcingChain,
    /// A consequence that every candidate of a cell leads to, by forcing chains (8.0 and
    /// up).
    CellForcingChains,
    /// A consequence that every place of a digit in a box, row or column leads to, by
    /// forcing chains (8.0 and up).
    RegionForcingChains,
    /// A consequence of a candidate followed dynamically, each candidate it turns off
    /// taken out of the grid as it goes: a clash, what the candidate on and off both lead
    /// to, or what every candidate of a cell or every place of a digit in a unit leads to
    /// (8.5 and up).
    DynamicForcingChains,
}

impl ChainKind {
    /// The rating of the shortest chains of the kind, in tenths.
    pub const fn base_tenths(self) -> u32 {
        match self {
            ChainKind::XCycle | ChainKind::YCycle => 65,
            ChainKind::ForcingXChain => 66,
            ChainKind::Cycle | ChainKind::ForcingChain => 70,
            ChainKind::AlignedTripleExclusion | ChainKind::NishioForcingChain => 75,
            ChainKind::CellForcingChains | ChainKind::RegionForcingChains => 80,
            ChainKind::DynamicForcingChains => 85,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            ChainKind::XCycle => "bidirectional X-cycle",
            ChainKind::YCycle => "bidirectional Y-cycle",
            ChainKind::ForcingXChain => "forcing X-chain",
            ChainKind::Cycle => "bidirectional cycle",
            ChainKind::ForcingChain => "forcing chain",
            ChainKind::AlignedTripleExclusion => "aligned triple exclusion",
            ChainKind::NishioForcingChain => "Nishio forcing chain",
            ChainKind::CellForcingChains => "cell forcing chains",
            ChainKind::RegionForcingChains => "region forcing chains",
            ChainKind::DynamicForcingChains => "dynamic forcing chains",
        }
    }
}

impl SeTechnique {
    /// Its SE rating, in tenths.
    pub fn tenths(self) -> u32 {
        use SeTechnique::*;
        match self {
            FullHouse => 10,
            HiddenSingleBox => 12,
            HiddenSingleLine => 15,
            DirectPointing => 17,
            DirectClaiming => 19,
            DirectHiddenPair => 20,
            NakedSingle => 23,
            DirectHiddenTriple => 25,
            Pointing => 26,
            Claiming => 28,
            NakedPair => 30,
            XWing => 32,
            HiddenPair => 34,
            NakedTriple => 36,
            Swordfish => 38,
            HiddenTriple => 40,
            Skyscraper => 40,
            TwoStringKite => 41,
            TurbotCrane => 41,
            XyWing => 42,
            EmptyRectangle => 43,
            GroupedTurbot => 43,
            XyzWing => 44,
            UniqueRectangle => 45,
            UniqueRectangle46 => 46,
            UniqueRectangle47 => 47,
            UniqueRectangle48 => 48,
            UniqueLoop { tenths, .. } => tenths,
            NakedQuad => 50,
            Jellyfish => 52,
            HiddenQuad => 54,
            ThreeSkyscrapers => 54,
            WxyzWing => 55,
            ThreeStrongLinks => 55,
            WxyzWingOfThree => 56,
            ThreeStrongLinksBoxRowColumn => 56,
            BugType1 => 56,
            ThreeStrongLinksGrouped => 57,
            BugType2 => 57,
            BugType4 => 57,
            BugType3Pair => 58,
            BugType3Triple => 59,
            BugType3Quad => 60,
            BugType3Five => 61,
            BugType3Six => 62,
            AlignedPairExclusion => 62,
            VwxyzWingOfFive => 62,
            VwxyzWing => 63,
            VwxyzWingOfThree => 64,
            Chain { tenths, .. } => tenths,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        use SeTechnique::*;
        match self {
            FullHouse => "full house",
            HiddenSingleBox => "hidden single (box)",
            HiddenSingleLine => "hidden single (line)",
            DirectPointing => "direct pointing",
            DirectClaiming => "direct claiming",
            DirectHiddenPair => "direct hidden pair",
            NakedSingle => "naked single",
            DirectHiddenTriple => "direct hidden triple",
            Pointing => "pointing",
            Claiming => "claiming",
            NakedPair => "naked pair",
            XWing => "X-Wing",
            HiddenPair => "hidden pair",
            NakedTriple => "naked triple",
            Swordfish => "Swordfish",
            HiddenTriple => "hidden triple",
            Skyscraper => "skyscraper",
            TwoStringKite => "two-string kite",
            TurbotCrane => "turbot crane",
            XyWing => "XY-Wing",
            EmptyRectangle => "empty rectangle",
            GroupedTurbot => "grouped turbot fish",
            XyzWing => "XYZ-Wing",
            UniqueRectangle => "unique rectangle",
            UniqueRectangle46 | UniqueRectangle47 | UniqueRectangle48 => "unique rectangle type 3",
            UniqueLoop { kind, .. } => match kind {
                1 => "unique loop type 1",
                2 => "unique loop type 2",
                3 => "unique loop type 3",
                _ => "unique loop type 4",
            },
            NakedQuad => "naked quad",
            Jellyfish => "Jellyfish",
            HiddenQuad => "hidden quad",
            ThreeSkyscrapers => "3 skyscrapers",
            WxyzWing => "WXYZ-Wing",
            ThreeStrongLinks => "3 strong links",
            WxyzWingOfThree => "WXYZ-Wing (a cell of three)",
            ThreeStrongLinksBoxRowColumn => "3 strong links (box, row and column)",
            BugType1 => "BUG type 1",
            ThreeStrongLinksGrouped => "3 strong links (grouped)",
            BugType2 => "BUG type 2",
            BugType4 => "BUG type 4",
            BugType3Pair | BugType3Triple | BugType3Quad | BugType3Five | BugType3Six => {
                "BUG type 3"
            }
            AlignedPairExclusion => "aligned pair exclusion",
            VwxyzWingOfFive => "VWXYZ-Wing (a cell of five)",
            VwxyzWing => "VWXYZ-Wing",
            VwxyzWingOfThree => "VWXYZ-Wing (a cell of three)",
            Chain { kind, .. } => kind.name(),
        }
    }
}
