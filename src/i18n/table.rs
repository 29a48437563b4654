//! The text tables. One line a key: English, then Simplified Chinese.
//!
//! Vocabulary follows the source documents (重试、退避、抖动、截止时间、重试预算、准入、
//! 熔断、舱壁、降级); where a term maps to a real library setting the help text says so.

macro_rules! texts {
    ($(#[$doc:meta])* $name:ident; $($key:ident => $en:literal, $zh:literal;)*) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($key),* }

        // Each language's texts in key order as one string, and where each ends in it: the
        // smallest form of the table in the bundle. (As a `match`, the optimiser chose
        // between a table of string pointers and a jump table with a branch per key, 18 KB
        // of code, depending on how the callers were inlined: the bundle moved by 5 KB on a
        // text edit. Pointers and lengths also compress worse than ascending ends.)
        const KEYS: usize = [$($name::$key),*].len();
        static EN_TEXT: &str = concat!($($en),*);
        static ZH_TEXT: &str = concat!($($zh),*);
        static EN_ENDS: [u32; KEYS] = $crate::i18n::table::ends([$($en.len()),*]);
        static ZH_ENDS: [u32; KEYS] = $crate::i18n::table::ends([$($zh.len()),*]);

        impl $name {
            /// Every key, for the completeness test.
            pub const ALL: &'static [$name] = &[$($name::$key),*];

            /// English text.
            pub fn en(self) -> &'static str {
                $crate::i18n::table::slice(EN_TEXT, &EN_ENDS, self as usize)
            }

            /// Simplified Chinese text.
            pub fn zh(self) -> &'static str {
                $crate::i18n::table::slice(ZH_TEXT, &ZH_ENDS, self as usize)
            }
        }

        impl $crate::i18n::Text for $name {
            fn en(self) -> &'static str {
                $name::en(self)
            }
            fn zh(self) -> &'static str {
                $name::zh(self)
            }
        }
    };
}
pub(crate) use texts;

/// Where each of a run of texts of `lens` bytes ends when they are written one after the
/// other.
pub(crate) const fn ends<const N: usize>(lens: [usize; N]) -> [u32; N] {
    let mut out = [0u32; N];
    let (mut i, mut at) = (0, 0);
    while i < N {
        at += lens[i];
        // A table past 4 GB would not build, rather than wrap.
        assert!(at <= u32::MAX as usize, "a text table's ends fit in u32");
        out[i] = at as u32;
        i += 1;
    }
    out
}

/// Text `i` of `all`, the texts written one after the other ending at `ends`.
pub(crate) fn slice(all: &'static str, ends: &[u32], i: usize) -> &'static str {
    // Every end is a sum of whole texts' lengths, so the cut is on a character boundary and
    // inside the table; a cut anywhere else is a bug in this file, not a blank text.
    let start = if i == 0 { 0 } else { ends[i - 1] as usize };
    &all[start..ends[i] as usize]
}

texts! {
    /// A key into the page's text tables.
    T;
    // ---- shell -------------------------------------------------------------------------
    AppName => "Resilience Lab", "韧性实验室";
    AppTagline => "How distributed systems fail, and how they are protected",
        "分布式系统如何失败，又如何被保护";
    NavLabel => "Labs", "实验";
    LanguageLabel => "Language", "语言";
    LanguageSwitchHelp => "Switch the interface language; the choice is kept in the link and in this browser.",
        "切换界面语言；选择会保存在链接和本浏览器中。";
    FooterModel => "All figures come from a virtual-time model under the assumptions stated on each page; they are not measurements of real systems.",
        "所有数字都来自虚拟时间模型，前提见各页说明；它们不是对真实系统的测量。";
    FooterOffline => "Runs entirely in your browser: no server, no network.",
        "完全在浏览器中运行：无服务器，无网络请求。";
    SkipToContent => "Skip to content", "跳到正文";
    CalcAnnounce => "Worst case: {worst} attempts/s downstream, amplification {amp}×.", "最坏情况：下游每秒 {worst} 次尝试，放大 {amp} 倍。";
    ControlsToggle => "Settings: preset, seed and every knob", "设置：预设、种子与全部参数";
    SettingsToggle => "Settings", "设置";
    SkipToPlayback => "Skip to the figures and playback", "跳到数字与播放控制";
    PageNotFound => "Unknown page “{page}” (the pages: {pages}); showing the default page instead.",
        "未知页面“{page}”（可用页面：{pages}），已显示默认页面。";
    LangNotFound => "This site speaks English and 简体中文, not “{lang}”; showing {shown}.",
        "本站提供简体中文和 English，不支持“{lang}”；当前显示{shown}。";
    LangName => "English", "简体中文";
    Dismiss => "Dismiss", "关闭";

    // ---- validation --------------------------------------------------------------------
    AllowedRange => "allowed: {min} to {max}{unit}", "允许范围：{min} 到 {max}{unit}";
    AllowedInteger => "allowed: a whole number from {min} to {max}{unit}", "允许范围：{min} 到 {max}{unit}（整数）";
    ListSep => ", ", "、";
    AllowedOneOf => "allowed: one of {choices}", "允许取值：{choices} 之一";
    AllowedLength => "allowed: {min} to {max} items", "允许 {min} 到 {max} 项";
    AllowedLengthExact => "allowed: exactly {n} items", "允许恰好 {n} 项";
    AllowedDecimals => "allowed: {min} to {max}{unit}, at most {decimals} decimals",
        "允许范围：{min} 到 {max}{unit}，最多 {decimals} 位小数";
    AllowedOffOrRange => "allowed: 0 (off), or {min} to {max}{unit}", "允许：0（关闭），或 {min} 到 {max}{unit}";
    LabelWithKey => "{label} ({key})", "{label}（{key}）";
    RowCell => "Row {n}, {col}", "第 {n} 行的{col}";
    LinkItemCell => "The link's arrivals item {n}, {col}", "链接中 arrivals 第 {n} 项的{col}";
    AdmStepsRegion => "Step table: one row per arrival and completion", "逐步表：每次到达与完成各一行";
    InFlightOf => "concurrency slots (squares): {n} of {limit} in flight", "并发名额（方块）：在途 {n} / {limit}";
    AllowedOffOrInteger => "allowed: 0 (off), or a whole number from {min} to {max}{unit}",
        "允许：0（关闭），或 {min} 到 {max}{unit}（整数）";
    FieldErrorMessage => "{field} = {value} is not accepted; {allowed}.",
        "{field} = {value} 不可接受；{allowed}。";
    EmptyValue => "(empty)", "（空）";
    // Rules that are not a range (`error::Rule`); they read after "allowed" / "不可接受；".
    RuleErrorRatesSum => "error_rate + client_error_rate must not exceed 1",
        "error_rate 与 client_error_rate（5xx 与 4xx 错误率）之和不得超过 1";
    RuleNameLength => "a name of 1 to 40 characters", "名称须为 1 到 40 个字符";
    RuleUniqueNames => "every service needs its own name", "每个服务须有自己的名称";
    RuleDecorrelatedNeedsExponential => "decorrelated jitter needs exponential backoff (for its base and cap)",
        "去相关抖动需要指数退避（用其基数与上限）";
    RuleSharedPoolNeeded => "needs a shared_pool on the layer", "需要该层设有共享池（shared_pool）";
    RuleBulkheadOrSharedPool => "a dependency uses either its own bulkhead or the shared pool",
        "一个依赖要么用自己的舱壁，要么用共享池，不能两者兼用";
    RuleStackRetryFirst => "retry must come first (it repeats the stages inside it)",
        "retry 必须排在最前（它重复其内侧的各个阶段）";
    RuleStackRepeated => "{detail} is listed twice", "{detail} 出现了两次";
    RuleStackMissing => "{detail} is missing; list all six stages", "缺少 {detail}；须列出全部六个阶段";
    RuleFaultOnLayer => "faults act on the leaf or a side dependency", "故障只能作用于叶子服务或旁路依赖";
    RuleFaultOverlap => "too many overlapping fault windows on one service", "同一服务上重叠的故障窗口过多";
    RuleKnownKey => "a known key ({detail})", "已知的键（{detail}）";
    RuleRequired => "a value: this field is required", "一个值：此字段为必填";
    RuleValidJson => "valid JSON ({detail})", "有效的 JSON（{detail}）";
    RuleExpected => "{detail}", "{detail}";
    RulePhasesFromList => "{detail}, the number of items in phase_ms, which sets the phases (phase_ms is used)",
        "{detail}，即 phase_ms 的项数，阶段数由它决定（已采用 phase_ms）";
    RuleNumber => "a number is wanted", "需要一个数字";
    RuleKeyOnce => "each key once in an object (which of two values wins differs between JSON readers)",
        "每个键在一个对象中只写一次（两个值中哪个生效，各 JSON 解析器并不一致）";
    RuleAxesDiffer => "a knob other than the other axis' ({detail}): a map of one knob against itself shows nothing across",
        "与另一轴不同的参数（另一轴为 {detail}）：同一参数自己对自己，地图横向看不出任何变化";
    RuleOneRate => "rps or rpd, not both: they set the same rate (rpd ÷ 86,400), and rpd is used",
        "rps 与 rpd 只给一个：二者设的是同一个速率（rpd ÷ 86,400），已采用 rpd";
    RuleSweepAxisKey => "KNOB=FROM..TO/N with KNOB one of {detail}, or any other retry-storm page link key (lab keys lists them)",
        "KNOB=FROM..TO/N，KNOB 为 {detail} 之一，或重试风暴页的任何其他链接键（lab keys 会列出）";
    KeptLastValid => "The figures below still show the last valid input.",
        "下方数字仍显示上一次有效输入的结果。";

    // ---- calculator page ---------------------------------------------------------------
    CalcNav => "Amplification calculator", "放大计算器";
    CalcTitle => "Retry amplification and in-flight calculator", "重试放大与在途量计算器";
    CalcIntro => "Back-of-the-envelope arithmetic from the source documents: how many attempts reach the bottom of a call chain when every layer retries, and how many connections they hold by Little's law. These are upper bounds under stated assumptions, not forecasts.",
        "来自源文档的估算：每层都重试时，调用链底部会收到多少次尝试，以及按 Little 定律它们会占用多少连接。这些是明确假设下的上界，不是预测。";
    CalcInputs => "Inputs", "输入";
    CalcOutputs => "Results", "结果";
    CalcChain => "Attempts down the chain (worst case)", "沿调用链的尝试次数（最坏情况）";
    CalcReset => "Reset to source 000's example", "恢复为文档 000 的示例";
    CalcResetHelp => "8,640,000 requests/day, peak ×5, 2 layers × 3 attempts, 100 ms / 800 ms hold, pool 200, 8 KiB.",
        "每天 8,640,000 次请求，峰值 ×5，两层各 3 次尝试，占用 100 ms / 800 ms，连接池 200，8 KiB。";
    FieldRequestsPerDay => "Requests per day", "每日请求数";
    FieldRequestsPerDayHelp => "Requests the entry receives in a day. Editing the average rate below changes this too.",
        "入口每天收到的请求数。修改下方的平均速率也会同步修改它。";
    FieldAvgRps => "Average rate", "平均速率";
    FieldAvgRpsHelp => "Requests per day ÷ 86,400. Editing it sets requests per day.",
        "每日请求数 ÷ 86,400。修改它会同步设置每日请求数。";
    FieldPeakFactor => "Peak factor", "峰值系数";
    FieldPeakFactorHelp => "Peak rate ÷ average rate. Source 000 uses ×5.",
        "峰值速率 ÷ 平均速率。文档 000 取 ×5。";
    FieldLayers => "Retrying layers", "重试层数";
    FieldLayersHelp => "How many layers of the call chain each retry on failure (1–8). Page → recommendation → profile has 2.",
        "调用链中各自在失败时重试的层数（1–8）。商品页 → 推荐服务 → 画像服务是 2 层。";
    FieldAttempts => "Attempts at layer {n}", "第 {n} 层尝试次数";
    FieldAttemptsList => "Attempts per layer, one per layer", "各层尝试次数，每层一项";
    FieldAttemptsHelp => "Attempts this layer makes per call, the first one included (≈ gRPC maxAttempts, which gRPC caps at 5; Resilience4j maxAttempts). “First + 3 retries” is 4.",
        "该层每次调用的尝试次数，含首次（≈ gRPC maxAttempts，gRPC 最多为 5；Resilience4j maxAttempts）。“首次 + 重试 3 次”即 4。";
    FieldHoldNormal => "Hold time, healthy", "正常占用时间";
    FieldHoldNormalHelp => "How long one downstream call holds a connection when the downstream is healthy.",
        "下游健康时，一次下游调用占用连接的时间。";
    FieldHoldDegraded => "Hold time, slow downstream", "下游变慢时的占用时间";
    FieldHoldDegradedHelp => "How long one call holds a connection while the downstream is slow. Source 000: 800 ms.",
        "下游变慢时一次调用占用连接的时间。文档 000：800 ms。";
    FieldPool => "Downstream pool size", "下游连接池上限";
    FieldPoolHelp => "Connections (or workers) available for downstream calls (≈ maxConnections, Resilience4j maxConcurrentCalls).",
        "可用于下游调用的连接（或工作线程）数（≈ maxConnections、Resilience4j maxConcurrentCalls）。";
    FieldResponseKib => "Response size", "响应大小";
    FieldResponseKibHelp => "Size of one response; 1 KiB = 1,024 bytes. Payload is reported in MB/s of 10⁶ bytes.",
        "单个响应的大小；1 KiB = 1,024 字节。载荷按 MB/s（10⁶ 字节）报告。";
    UnitPerDay => "req/day", "次/天";
    UnitRps => "req/s", "请求/秒";
    UnitAttemptsPerS => "attempts/s", "次尝试/秒";
    UnitTimes => "×", "×";
    UnitMs => "ms", "ms";
    UnitConnections => "connections", "条连接";
    UnitKib => "KiB", "KiB";
    UnitMbps => "MB/s", "MB/s";
    UnitLayers => "layers", "层";
    UnitAttempts => "attempts", "次";
    OutAvg => "Average rate", "平均速率";
    OutPeak => "Peak rate", "峰值速率";
    OutAmplification => "Amplification", "放大倍数";
    OutWorst => "Worst-case downstream attempts", "下游尝试次数上界";
    OutWorstNote => "An upper bound: every request exhausts every layer's attempts. Not a traffic forecast.",
        "这是上界：每个请求都用尽每一层的尝试次数。不是流量预测。";
    OutInFlight => "In-flight connections (Little's law, L = λ × W)", "在途连接数（Little 定律，L = λ × W）";
    InFlightNormalBefore => "normal latency, no amplification", "正常延迟，未放大";
    InFlightNormalAfter => "normal latency, amplified", "正常延迟，已放大";
    InFlightDegradedBefore => "slow downstream, no amplification", "下游变慢，未放大";
    InFlightDegradedAfter => "slow downstream, amplified", "下游变慢，已放大";
    OutSaturated => "at or over the pool", "达到或超过连接池";
    OutFits => "fits", "可容纳";
    OutPayload => "Payload at peak", "峰值载荷";
    SaturationTitle => "The pool saturates", "连接池饱和";
    SaturationExplain => "Demand of {demand} connections reaches or exceeds the pool of {pool}. Past this point the estimate offered rate × hold time predicts nothing: the system cannot hold a steady state (L = λW still holds for what is admitted, with the time it really takes), and the extra work does not sit “in flight” forever — it queues, times out or is rejected. Watch queue length and how long requests live instead.",
        "需求 {demand} 条连接达到或超过了连接池上限 {pool}。越过这一点，“请求速率 × 占用时间”的估算不再成立：系统无法保持稳态（对实际被接纳的流量、按实际停留时间，L = λW 仍然成立），多出的工作也不会一直“在途”——它们会排队、超时或被拒绝。此时应观察排队长度和请求存活时间。";
    ChainEntry => "entry", "入口";
    ChainLayer => "layer {n}", "第 {n} 层";
    ChainDownstream => "downstream", "下游";
    ChainPictureLabel => "Attempts per second reaching each level in the worst case",
        "最坏情况下每一级每秒收到的尝试次数";

    // ---- admission lab (?page=admission) -------------------------------------------------
    AdmNav => "Admission lab", "准入实验";
    AdmTitle => "Admission lab: token bucket and concurrency limit", "准入实验：令牌桶与并发上限";
    AdmIntro => "Source 002's offline admission model, one event at a time: a bucket of B tokens refilling r per second (it starts full; 1 token = {k} integer credits) and a concurrency limit. Both gates must pass; a rejection consumes nothing; nothing queues or waits. Every decision is made by the same policy code the retry-storm page runs.",
        "文档 002 的离线准入模型，逐个事件推演：容量 B 个令牌、每秒补充 r 个的令牌桶（初始为满；1 令牌 = {k} 个整数额度单位，即 credit）加一个并发上限。两道门槛都要通过；拒绝不扣令牌；不排队，也不等待。每个决定都由重试风暴页所用的同一份策略代码做出。";
    AdmPreset002 => "Source 002: B = 2, r = 2/s, limit 1", "文档 002：B = 2，r = 2/秒，并发 1";
    AdmStory002 => "Six arrivals meet every rule: #2 is refused by the concurrency limit although tokens remain; #3 costs 3 > B (cost_exceeds_capacity); #1 completes at exactly 500 ms, so #4 arriving at 500 ms gets the slot; #5 finds the slot free but only 0.6 tokens (rate_limit, Retry-After 200 ms); #6 arrives exactly then and is admitted.",
        "六个请求覆盖所有规则：#2 虽有令牌但并发已满而被拒；#3 成本 3 > B（cost_exceeds_capacity）；#1 恰在 500 ms 完成，所以 500 ms 到达的 #4 拿到名额；#5 名额空闲但只有 0.6 个令牌（rate_limit，Retry-After 200 ms）；#6 恰在那时到达，被接纳。";
    AdmPreset003 => "Source 003: a bucket of 5 meets 8 requests", "文档 003：容量 5 的桶遇到 8 个请求";
    AdmStory003 => "Eight requests arrive together at a bucket of 5 refilling 1 token/s: 5 × 200, then 3 × 429 with Retry-After 1 s (rejections take nothing, so each is told the same wait).",
        "8 个请求同时到达容量 5、每秒补充 1 个令牌的桶：5 × 200，随后 3 × 429，Retry-After 1 s（拒绝不扣令牌，所以每个都被告知同样的等待时间）。";
    AdmPresetCost => "A cost above B", "成本超过 B";
    AdmStoryCost => "Requests costing 3 tokens against a bucket of 2, once a second: the bucket is full every time and never enough. cost_exceeds_capacity says waiting cannot help (Go's rate.Limiter: n > burst never succeeds).",
        "每秒一个成本为 3 的请求，桶容量却只有 2：每次桶都是满的，却永远不够。cost_exceeds_capacity 表示等待无济于事（Go rate.Limiter：n > burst 永远不会成功）。";
    AdmPresetSteady => "A steady stream just above r", "略高于 r 的稳定流量";
    AdmStorySteady => "2.5 requests/s, evenly spaced, against r = 2/s: the burst of 2 hides the excess for about 2 s, then about 1 request in 5 is refused. A token bucket bounds the average rate, not the spacing.",
        "每秒 2.5 个均匀到达的请求，对上 r = 2/秒：容量 2 的突发先掩盖超出部分约 2 s，之后约每 5 个拒绝 1 个。令牌桶限制的是平均速率，而不是间隔。";
    KBucketB => "Bucket capacity B", "桶容量 B";
    KBucketBHelp => "Burst size and starting level (the bucket starts full). ≈ Go rate.Limiter's burst b; ≈ Envoy local_ratelimit max_tokens. 0 = no token bucket (only the concurrency limit).",
        "突发容量，也是初始令牌数（桶初始为满）。≈ Go rate.Limiter 的 burst b；≈ Envoy local_ratelimit 的 max_tokens。0 = 不用令牌桶（只有并发上限）。";
    KRefill => "Refill rate r", "补充速率 r";
    KRefillHelp => "Tokens added per second, continuously and exactly (elapsed ms × r credits). ≈ Go's rate.Limit (events/s). Envoy instead adds tokens_per_fill every fill_interval, in steps.",
        "每秒补充的令牌数，连续且精确（经过的毫秒数 × r 个额度单位）。≈ Go 的 rate.Limit（每秒事件数）。Envoy 则每个 fill_interval 一次性补充 tokens_per_fill 个，呈阶梯状。";
    KCost => "Cost per request", "每个请求的成本";
    KCostHelp => "Tokens a generated or added request takes when admitted (edit a row for others). A cost above B is refused as cost_exceeds_capacity (Go: AllowN with n > burst).",
        "生成或新增的请求被接纳时扣除的令牌数（其他成本可逐行修改）。成本大于 B 的请求以 cost_exceeds_capacity 拒绝（Go：AllowN 且 n > burst）。";
    KHold => "Hold time", "占用时间";
    KHoldHelp => "How long an admitted request keeps its concurrency slot (generated and added rows). Completion frees the slot, never tokens.",
        "被接纳的请求占用并发名额的时长（用于生成和新增的行）。完成只释放名额，从不退还令牌。";
    KCount => "Requests", "请求数";
    KCountHelp => "How many arrivals the generator makes (at most 1,000).", "生成器产生的到达数（最多 1,000 个）。";
    KGap => "Gap", "间隔";
    KGapHelp => "Time between generated arrivals; for Poisson, the mean of random exponential gaps.", "生成的到达之间的间隔；泊松方式下为随机指数间隔的均值。";
    KLabSeedHelp => "The same seed always draws the same random arrivals and runs.", "相同的种子总是抽到相同的随机到达与运行结果。";
    KGenHelp => "Edit the table, or generate: a burst of n at t = 0, n evenly spaced from t = 0, or n Poisson arrivals from t = 0 (seeded; the first after a random gap, as every other). Editing a row turns a generated list into a table.",
        "直接编辑表格，或生成：t = 0 时的 n 个突发、从 t = 0 起 n 个均匀间隔，或从 t = 0 起 n 个泊松到达（带种子；第一个与其余一样在一段随机间隔后到达）。修改任意一行会把生成的列表变为表格。";
    OptTable => "table", "表格";
    OptBurst => "burst at t = 0", "t = 0 突发";
    UnitInteger => "integer", "整数";
    ArrivalsTitle => "Arrivals", "到达";
    ColTime => "time", "时间";
    ColCost => "cost", "成本";
    ColHold => "hold", "占用";
    AddRow => "Add a row", "添加一行";
    DeleteRow => "Delete row {n}", "删除第 {n} 行";
    MoreRows => "{n} more rows are not shown for editing; they are in the link and in the run.", "另有 {n} 行未显示为可编辑；它们在链接中，也参与运行。";
    // A no-break space in "HTTP 200": the steps table may wrap a decision, but only before
    // its status code.
    Admitted => "admitted (HTTP\u{a0}200)", "接纳（HTTP\u{a0}200）";
    Rejected => "rejected (HTTP\u{a0}429)", "拒绝（HTTP\u{a0}429）";
    Completed => "completed", "完成";
    // The admission lab's two cards read "2 / 3 requests" each: what the two numbers are.
    AdmFiguresSlash => "Before the slash: up to the playhead; after it: the whole run.", "斜线前是到播放头为止的数目，斜线后是整次运行的数目。";
    ByReason => "Rejected by reason over the whole run: {cn} {c}, {rn} {r}, {xn} {x}.", "整次运行的拒绝原因：{cn}{c} 个，{rn}{r} 个，{xn}{x} 个。";
    CreditScale => "1 token = {k}; refill = elapsed ms × {r}.", "1 令牌 = {k}；补充量 = 经过的毫秒数 × {r}。";
    EventScrub => "Event", "事件";
    StepEventHelp => "Advance one event.", "前进一个事件。";
    EventScrubHelp => "Drag to any event of the run (← → one at a time); the bucket and the cards show the run up to it.", "拖动到运行中的任意事件（← → 逐个移动）；令牌桶和卡片都显示到该事件为止的运行。";
    StepOf => "step {k} of {n} · t = {t} ms", "第 {k}/{n} 步 · t = {t} ms";
    ReducedMotionSteps => "Reduced motion is on: showing the end state; step or drag to any event.", "已开启减少动态效果：显示最终状态；可单步或拖动到任意事件。";
    NoBucket => "no token bucket", "无令牌桶";
    BucketLabel => "Bucket: {level}", "令牌桶：{level}";
    BucketFigure => "Token bucket", "令牌桶";
    TokensChart => "Tokens over time (● admitted, × rejected)", "令牌随时间变化（● 接纳，× 拒绝）";
    AxisMs => "time (ms)", "时间（ms）";
    ColT => "t (ms)", "t（ms）";
    ColEvent => "event", "事件";
    ColBefore => "tokens before (credits)", "处理前令牌（额度单位）";
    ColAfter => "tokens after (credits)", "处理后令牌（额度单位）";
    ColInFlight => "in flight", "在途";
    ColDecision => "decision", "决定";
    ColReason => "reason", "原因";
    ColRetryAfter => "Retry-After", "Retry-After";
    EvArrival => "arrival #{n}, cost {cost}", "到达 #{n}，成本 {cost}";
    EvCompletion => "#{n} completes", "#{n} 完成";
    AdmAnnounce => "{at}: {what}.", "{at}：{what}。";
    AdmSaidDecision => "{e}, {d}", "{e}，{d}";
    AdmSaidRefusal => "{e}, {d}: {r}", "{e}，{d}：{r}";
    EvRefill => "refilled to B since {t} ms", "自 {t} ms 起补满至 B";
    BucketFull => "full", "已满";
    ReasonConcurrency => "concurrency_limit", "并发已满（concurrency_limit）";
    ReasonRate => "rate_limit", "令牌不足（rate_limit）";
    ReasonCost => "cost_exceeds_capacity", "成本超过容量（cost_exceeds_capacity）";
    Never => "never", "永不";
    StepWindow => "Steps {a}–{b} of {n}, around the current one.", "第 {a}–{b} 步（共 {n} 步），围绕当前步。";
    RealLimiters => "What real limiters would do", "真实限流器会怎么做";
    NoteGo => "Go's x/time/rate: Allow() makes the same decision as this lab (a full bucket of burst b refilling at Limit; n > burst never passes) and, as here, a refusal takes nothing. Wait() and Reserve() delay instead of refusing: both reserve the tokens now; Wait() blocks the caller until they exist, Reserve() returns at once with the Delay() the caller must sleep — a queue in time instead of a 429 — except when n > burst (WaitN returns an error, ReserveN a reservation that is not OK, like cost_exceeds_capacity here) or when the wait would outlast the context's deadline (Wait returns an error at once).",
        "Go 的 x/time/rate：Allow() 的决定与本实验相同（初始满、容量 burst b、按 Limit 补充；n > burst 永不通过），而且与这里一样，拒绝不消耗令牌。Wait() 与 Reserve() 以等待代替拒绝：两者都现在就预订令牌；Wait() 阻塞调用方直到令牌可用，Reserve() 立即返回，由调用方自行等待它给出的 Delay()——用时间上的排队代替 429；例外有两种：n > burst 时（WaitN 返回错误，ReserveN 返回 OK() 为 false 的预订，相当于这里的 cost_exceeds_capacity），以及等待会超过 context 的截止时间时（Wait 立即返回错误）。";
    NoteEnvoy => "Envoy's local_ratelimit starts with max_tokens and adds tokens_per_fill every fill_interval (at least 50 ms) in one step, so the level climbs in stairs, not the smooth slope drawn here; a refused request takes no token and gets 429 with x-envoy-ratelimited. That filter has no concurrency gate.",
        "Envoy 的 local_ratelimit 初始为 max_tokens，每个 fill_interval（至少 50 ms）一次性补充 tokens_per_fill 个令牌，所以令牌量呈阶梯上升，而不是这里画的平滑斜线；被拒请求不消耗令牌，返回 429 和 x-envoy-ratelimited。该过滤器没有并发门槛。";
    NoteModel => "This is source 002's teaching model: one global bucket, integer credits, no queue, no automatic retry; not RFC 2697's two-bucket three-colour marker, and not a production limiter. Retry-After is the time the bucket needs to hold the cost; HTTP sends it in whole seconds, rounded up.",
        "这是文档 002 的教学模型：单个全局桶、整数额度单位、不排队、不自动重试；不是 RFC 2697 的双桶三色标记器，也不是生产限流器。Retry-After 是桶攒够该成本所需的时间；HTTP 以整秒发送，向上取整。";
    // ---- queue lab (?page=queue) ---------------------------------------------------------
    QNav => "Queue lab", "排队实验";
    QTitle => "Queue lab: utilisation, waiting and the hockey stick", "排队实验：利用率、等待与“曲棍球棒”曲线";
    QIntro => "One pool of c workers behind a queue, fed at rate λ. Each figure the chain engine simulates sits beside its closed form: Erlang C for M/M/c (Poisson arrivals, exponential service, unbounded queue), M/M/c/K with a queue limit, Takács' D/M/c for evenly spaced arrivals, otherwise a stated approximation. Waiting grows steeply as ρ approaches 1, while the workers are still idle part of the time.",
        "一个有 c 个工作线程的池，前面是队列，到达率为 λ。链路引擎模拟的每个数字都与其闭式解并列：M/M/c（泊松到达、指数服务、无界队列）用 Erlang C，设了队列上限时用 M/M/c/K，均匀到达时用 Takács 的 D/M/c，其他情况注明所用的近似。ρ 接近 1 时等待急剧上升，尽管线程仍有部分时间空闲。";
    QPreset002 => "Source 002: 120/s, 40 ms, 8 workers", "文档 002：120/秒，40 ms，8 个线程";
    QStory002 => "λ = 120/s, 40 ms per request, 8 workers: ρ = 60 %. About 14 % of requests wait; those that do wait 12.5 ms on average, 1/(cμ − λ) (1.74 ms averaged over all requests, Wq). The capacity table reproduces source 002: 150/s admitted at a 75 % ceiling, at least 7 workers, L = 4.8 busy and 12 in system at W = 100 ms.",
        "λ = 120/秒，每个请求 40 ms，8 个线程：ρ = 60%。约 14% 的请求需要等待；这些请求平均等待 12.5 ms，即 1/(cμ − λ)（按全部请求平均为 1.74 ms，即 Wq）。容量表复现文档 002：75% 上限时接纳 150/秒，至少 7 个线程，L = 4.8 个忙碌线程，W = 100 ms 时系统内 12 个请求。";
    QPresetSingle => "One worker at ρ = 80 %", "单线程，ρ = 80%";
    QStorySingle => "M/M/1 at 20/s and 40 ms: 80 % of requests wait; those that do wait 5 service times on average (200 ms; 160 ms averaged over all requests, Wq), and the p99 of the time in system is about 920 ms — 23 service times.",
        "M/M/1，20/秒、40 ms：80% 的请求需要等待；这些请求平均等待 5 个服务时间（200 ms；按全部请求平均为 160 ms，即 Wq），在系统内停留时间的 p99 约 920 ms——23 个服务时间。";
    QPresetConstant => "Constant service (M/D/c)", "常数服务时间（M/D/c）";
    QStoryConstant => "Source 002's workload with every request taking exactly 40 ms. No exact formula: the mean wait is drawn by Allen–Cunneen, half of M/M/c's; the simulation shows how close that is.",
        "文档 002 的负载，但每个请求恰好 40 ms。没有精确公式：平均等待用 Allen–Cunneen 近似，为 M/M/c 的一半；模拟显示它有多接近。";
    QPresetTail => "Long-tailed service (log-normal)", "长尾服务时间（对数正态）";
    QStoryTail => "Median 30 ms, p99 300 ms: the mean is about 49 ms, so ρ ≈ 73 %. The variance of the service time (Cs² ≈ 1.66) lengthens every wait; Allen–Cunneen scales M/M/c's wait by (1 + 1.66)/2.",
        "中位数 30 ms，p99 300 ms：均值约 49 ms，因此 ρ ≈ 73%。服务时间的方差（Cs² ≈ 1.66）拉长了每次等待；Allen–Cunneen 把 M/M/c 的等待乘以 (1 + 1.66)/2。";
    QPresetOverload => "Overload: λ above cμ", "过载：λ 超过 cμ";
    QStoryOverload => "210/s against an ideal 200/s, behind a queue of 50. Without the limit there would be no steady state; with it there is one (M/M/c/K): about 5 % of arrivals find the queue full and are turned away with 503 (about the 10/s excess), the queue hovers around two-thirds full, and the mean wait is about 170 ms, short of the 250 ms a full queue takes to drain (50 ÷ 8 workers × 40 ms).",
        "到达 210/秒，而理想容量为 200/秒，队列上限 50。若不设上限，就不存在稳态；设了上限才有稳态（M/M/c/K）：约 5% 的到达请求发现队列已满，以 503 被拒绝（大约就是超出的那 10/秒），队列长度在三分之二满上下波动，平均等待约 170 ms，低于排空满队列所需的 250 ms（50 ÷ 8 个线程 × 40 ms）。";
    QRateHelp => "Requests per second arriving at the pool, as a Poisson process or evenly spaced.", "每秒到达线程池的请求数，按泊松过程或均匀间隔到达。";
    QArrivalsHelp => "Poisson: independent random gaps (the first M of M/M/c; Ca² = 1). Evenly spaced: one every 1/λ (Ca² = 0), which waits less.",
        "泊松：相互独立的随机间隔（M/M/c 的第一个 M；Ca² = 1）。均匀：每 1/λ 一个（Ca² = 0），等待更少。";
    QServiceHelp => "How long a request holds a worker: exponential (memoryless, the second M of M/M/c; Cs² = 1), constant (Cs² = 0), or log-normal by median and p99, the way latency is quoted.",
        "请求占用线程的时长：指数（无记忆，M/M/c 的第二个 M；Cs² = 1）、常数（Cs² = 0），或按中位数与 p99 给出的对数正态（延迟通常的表述方式）。";
    QServiceMs => "Service time", "服务时间";
    QServiceMsHelp => "The constant, the mean (exponential) or the median (log-normal). μ = 1000 ÷ mean per worker.", "常数、均值（指数）或中位数（对数正态）。单线程 μ = 1000 ÷ 均值。";
    QP99Help => "99th percentile of the log-normal service time (at least the median).", "对数正态服务时间的第 99 百分位（不小于中位数）。";
    QWorkersHelp => "Workers serving at once, c (threads or connections; ≈ a server's maxThreads, Resilience4j ThreadPoolBulkhead maxThreadPoolSize). At most 10,000 here.",
        "同时服务的线程数 c（线程或连接；≈ 服务器的 maxThreads、Resilience4j ThreadPoolBulkhead 的 maxThreadPoolSize）。此处最多 10,000。";
    QCeiling => "Utilisation ceiling", "接纳上限（利用率）";
    QCeilingHelp => "Share of the ideal capacity cμ that admission allows (source 002: 75 %); it sets the capacity table and the line on the curve. The simulation does not enforce it.",
        "准入允许使用的理想容量 cμ 的比例（文档 002：75%）；用于容量表和曲线上的竖线。模拟不执行这一上限。";
    QW => "Assumed time in system W (capacity table)", "假定的系统内时间 W（容量表用）";
    QWHelp => "End-to-end time for the capacity table's second L = λW (source 002: 100 ms gives 12 in system, waiting ones included).",
        "容量表中第二个 L = λW 所用的端到端时间（文档 002：100 ms 对应系统内 12 个请求，含等待者）。";
    QFigures => "Simulated beside closed form", "模拟与闭式解对照";
    QColFigure => "figure", "指标";
    ColActions => "actions", "操作";
    QColFormula => "formula", "公式";
    QColClosed => "closed form", "闭式解";
    QColSim => "simulated", "模拟";
    QRho => "Utilisation ρ", "利用率 ρ";
    // At or above capacity without a queue limit: λ/(cμ) is no longer a share of time busy.
    QOfferedPerWorker => "Offered load per worker λ/(cμ)", "每个线程分到的负载 λ/(cμ)";
    QPWait => "P(wait), Erlang C", "等待概率（Erlang C）";
    QWait => "Mean wait Wq", "平均等待 Wq";
    QTime => "Mean time in system W", "平均系统内时间 W";
    QP99 => "p99 time in system", "系统内时间 p99";
    QL => "Mean number in system L", "平均系统内请求数 L";
    QBlocked => "Turned away (queue full)", "被拒（队列已满）";
    QExact => "M/M/c: every closed form above is exact for the steady state with an unbounded queue; the simulated figures differ by sampling noise and the run's empty start.",
        "M/M/c：上面每个闭式解在无界队列的稳态下都是精确的；模拟结果的差异来自抽样噪声和从空系统开始运行。";
    QApprox => "Not M/M/c: Wq and W are Allen–Cunneen's approximation, M/M/c's wait × (Ca² + Cs²)/2, here × {f}; P(wait) is Erlang C, a reference only; no p99 is drawn.",
        "不是 M/M/c：Wq 与 W 采用 Allen–Cunneen 近似，即 M/M/c 的等待 × (Ca² + Cs²)/2，此处为 × {f}；等待概率仍为 Erlang C，仅供参考；不给出 p99。";
    // With a queue limit and no closed form for it (M/M/c/K needs Poisson arrivals and
    // exponential work): the limit still gives the pool a steady state.
    QUnstableLimited => "λ ≥ cμ: every worker stays busy, and the queue limit stops the queue growing: it stays near full and turns the excess away, a steady state, but no closed form here covers this setting, so read the run's figures. Only λ/(cμ) has a closed form.",
        "λ ≥ cμ：所有线程一直在忙，队列上限让队列不再增长：队列接近满，把超出的请求拒绝，这是一种稳态，但这里没有闭式解覆盖这个设置，请看运行结果。只有 λ/(cμ) 有闭式解。";
    QUnstable => "λ ≥ cμ: no steady state. The queue grows as long as arrivals last (or fills and turns calls away); only ρ has a closed form.",
        "λ ≥ cμ：不存在稳态。只要还有到达，队列就不断增长（或填满后拒绝请求）；只有 ρ 有闭式解。";
    QQueueNote => "The closed forms assume an unbounded queue; with a queue limit the run also turns calls away when it is full.", "闭式解假设队列无界；设置队列上限后，队列满时模拟还会拒绝请求。";
    QSimNote => "Simulated by the chain engine (one client calling the pool once, no retries): about {n} requests at this setting (with Poisson arrivals, the count over a fixed time varies), about {m} at each point of the curve, each point with a seed of its own drawn from the lab's. ρ = busy time ÷ (c × run length); L = the calls in the pool (busy workers plus queue) averaged over the run's time.",
        "由链路引擎模拟（一个客户端调用线程池一次，不重试）：当前设置约 {n} 个请求（泊松到达时，固定时长内的到达数有起伏），曲线上每个点约 {m} 个，每个点使用由本实验种子派生的独立种子。ρ = 忙碌时间 ÷（c × 运行时长）；L = 线程池内的请求数（忙碌线程加队列）按运行时间取平均。";
    QLittleCheck => "Little's law on this run: λ × W = {lambda}/s × {w} ms {eq} {lw}, against the pool's time-averaged count L = {l} (the two differ by {d} %). Measured separately, from the calls' own times and from the pool's entries and exits, they agree whenever the pool starts and ends empty.",
        "本次运行上的 Little 定律：λ × W = {lambda}/秒 × {w} ms {eq} {lw}，线程池按时间平均的请求数 L = {l}（两者相差 {d}%）。二者分别由请求自身的时间和线程池的进出记录测得；只要线程池从空开始、以空结束，它们就相等。";
    QRunFailed => "the run could not finish in the browser.", "该运行无法在浏览器中完成。";
    QUnfinished => "The run ended with {left} of its {total} requests still waiting or in service ({why}). The simulated figures count only the calls that finished, so they understate the wait and the time in the pool.",
        "运行结束时，{total} 个请求中仍有 {left} 个在等待或处理中（{why}）。模拟结果只统计已完成的调用，因此低估了等待时间和在线程池中的时间。";
    QCutDrain => "the engine runs at most an hour of virtual time after the last arrival", "引擎在最后一个请求到达后最多再运行一小时虚拟时间";
    QCutCalls => "it stopped at {t} s: more than {limit} calls were alive at once", "运行在 {t} 秒时停止：同时存活的调用超过 {limit} 个";
    QCutWork => "it stopped at {t} s after {limit} events, its work limit", "运行在 {t} 秒时停止：处理了 {limit} 个事件，达到工作量上限";
    QCurveTitle => "Mean time in system against utilisation", "平均系统内时间与利用率";
    AxisRho => "utilisation ρ", "利用率 ρ";
    QAxisW => "W (ms)", "W（ms）";
    QLegendExact => "closed form (M/M/c)", "闭式解（M/M/c）";
    QLegendApprox => "Allen–Cunneen approximation", "Allen–Cunneen 近似";
    QLegendDmc => "closed form (D/M/c)", "闭式解（D/M/c）";
    QPWaitTakacs => "P(wait), Takács (GI/M/c)", "等待概率（Takács，GI/M/c）";
    QExactDmc => "D/M/c: evenly spaced arrivals and exponential service have an exact steady state with an unbounded queue (Takács' GI/M/c: σ = e^(−(1 − σ)/ρ) = {s}; an arrival waits with probability P(wait), then for an exponential time of rate cμ(1 − σ)). Erlang C would say more: evenly spaced arrivals bunch up less than Poisson ones. The simulated figures differ by sampling noise and the run's empty start.",
        "D/M/c：到达间隔均匀、服务时间服从指数分布时，无界队列存在精确稳态（Takács 的 GI/M/c 解：σ = e^(−(1 − σ)/ρ) = {s}；到达者以 P(wait) 的概率需要等待，等待时间服从速率为 cμ(1 − σ) 的指数分布）。Erlang C 给出的会更多：均匀到达不像泊松到达那样扎堆。模拟结果的差异来自抽样噪声和从空系统开始运行。";
    QNoClosedBounded => "With this queue limit the pool has a steady state at any load, but no closed form here covers it past ρ = 100 % ({why}), so the line stops. Its dot is the run's mean, bounded by the queue limit; past 150 % it sits on the chart's edge.",
        "设了这个队列上限后，池在任何负载下都有稳态，但这里没有闭式解覆盖 ρ = 100% 以上的情形（{why}），因此曲线到此为止。它的点是本次运行的平均值，受队列上限约束；超过 150% 时点画在图表边缘。";
    QLegendSim => "simulated", "模拟";
    QLegendHere => "this setting", "当前设置";
    QLegendCeiling => "ceiling {p} %", "接纳上限 {p}%";
    QQueueChart => "Busy workers and queue over time (highest in each {ms} ms)", "忙碌线程与队列随时间变化（每 {ms} ms 内的最大值）";
    CapTitle => "Capacity with a safety ceiling (source 002)", "带接纳上限的容量（文档 002）";
    CapMu => "Per-worker rate μ", "单线程服务率 μ";
    CapIdeal => "Ideal capacity cμ", "理想容量 cμ";
    CapAdmit => "Admitted at the ceiling", "上限内可接纳";
    CapHeadroom => "Headroom: capacity above the ceiling", "能力余量：上限以上的容量";
    CapMargin => "Margin: current traffic to the ceiling", "距接纳上限的余量";
    CapMinWorkers => "Fewest workers under the ceiling", "满足上限的最少线程数";
    CapBusy => "Busy workers L = λ × service time", "忙碌线程 L = λ × 服务时间";
    CapInSystem => "In system L = λ × W (W: the assumed time in system, a setting, not this run's)", "系统内请求 L = λ × W（W 为设置中假定的系统内时间，不是本次运行测得的）";
    CapNote => "Headroom and margin are different things (source 002). L = λW needs a stable system with consistent long-run averages: {n} in system does not mean {n} cores suffice, and no average gives a p99.",
        "能力余量与距上限的余量是两回事（文档 002）。L = λW 需要稳定且口径一致的长期平均：系统内 {n} 个请求不代表 {n} 个核就够，平均数也推不出 p99。";
    // ---- presets -----------------------------------------------------------------------
    PresetLab11Unprotected => "Lab 11, unprotected", "实验 11：无保护";
    PresetLab11UnprotectedStory => "Source 000’s lab 11 (its virtual-time retry lab): 100 requests at once; page → recommendation → a slow profile service that holds each call 100 ms and fails. Both layers try 3 times: 900 profile calls, and every request ends after 1,020 ms.",
        "文档 000 的第 11 个实验（它的虚拟时间重试实验）：100 个请求同时到达；商品页 → 推荐服务 → 慢画像服务（每次占用 100 ms 后失败）。两层各尝试 3 次：画像服务收到 900 次调用，每个请求 1,020 ms 后才结束。";
    PresetLab11Protected => "Lab 11, protected", "实验 11：有保护";
    PresetLab11ProtectedStory => "Source 000’s lab 11 with its protections: the entry admits 20 and fast-rejects 80, gives each request a 250 ms budget and degrades instead of failing; only the recommendation client retries, once. 40 profile calls; the longest request takes 220 ms.",
        "文档 000 第 11 个实验加上保护：入口只准入 20 个、快速拒绝 80 个，给每个请求 250 ms 的截止时间预算，失败时降级；只有推荐服务调用画像服务时重试一次。画像服务共收到 40 次调用，最长请求 220 ms。";
    PresetLab11Budget150 => "Lab 11, 150 ms budget", "实验 11：截止时间 150 ms";
    PresetLab11Budget150Story => "The protected lab with a 150 ms budget. The budget is checked before the backoff sleep: after the first failure 50 ms remain, and after the 20 ms backoff only 30 ms would, less than the 100 ms a try needs, so only first attempts are sent: 20 calls.",
        "受保护实验把截止时间预算缩短到 150 ms。退避睡眠之前就检查截止时间：首次失败后剩 50 ms，退避 20 ms 后只剩 30 ms，不够一次 100 ms 的尝试，所以只发首次请求：共 20 次调用。";
    PresetChain2x3 => "2 layers × 3 attempts", "两层 × 3 次尝试";
    PresetChain2x3Story => "Source 000: 500 req/s, two layers that each try 3 times, a leaf that always fails: 9 leaf calls per request, 4,500 attempts/s.",
        "文档 000：每秒 500 个请求，两层各尝试 3 次，叶子服务（画像服务）总是失败：每个请求 9 次下游尝试，每秒 4,500 次尝试。";
    PresetChain3x3 => "3 layers × 3 attempts", "三层 × 3 次尝试";
    PresetChain3x3Story => "Source 001: client → gateway → order → payment, each making 3 attempts (the source's 'retry 3 times', the first included): 27× — 1,000 QPS becomes 27,000 calls/s at payment.",
        "文档 001：客户端 → 网关 → 订单服务 → 支付服务，每层 3 次尝试（来源所说的“重试 3 次”，含首次）：放大 27 倍——1,000 QPS 在支付服务变成每秒 27,000 次调用。";
    PresetChain3x4 => "3 layers × (first + 3 retries)", "三层 ×（首次 + 重试 3 次）";
    PresetChain3x4Story => "Source 002: “first attempt plus 3 retries” on each of 3 layers is 4³ = 64 calls per request.",
        "文档 002：三层每层“首次加重试三次”，每个请求 4³ = 64 次调用。";
    PresetRecommendation500 => "500 req/s into a pool of 200", "每秒 500 次请求，连接池 200";
    PresetRecommendation500Story => "Source 000's peak: 500 req/s, 2 layers × 3 attempts, the profile service slowed to 800 ms behind a pool of 200. Demand exceeds the pool even before retries; calls queue, time out and are retried, and abandoned calls keep the pool busy.",
        "文档 000 的峰值：每秒 500 次请求，两层各 3 次尝试，画像服务变慢到 800 ms，连接池上限 200。即使不算重试，需求也已超过连接池；调用排队、超时并被重试，被放弃的调用仍占着连接池。";
    PresetBigPromo => "Big promo, unprotected", "大促：无保护";
    PresetBigPromoStory => "Source 003's incident: a ×5 surge while recommendations slow to a p99 of ~2 s. Every dependency shares 8 threads with an unbounded queue, nothing times out in time, the app retries at once: order calls queue behind slow recommendations and the order path goes down with them.",
        "文档 003 的事故：流量 ×5 的同时推荐服务 p99 升到约 2 s。所有依赖共享 8 个线程且队列无上限，超时形同虚设，App 立即重试：订单调用排在慢推荐调用后面，本不需要推荐的下单链路也一起倒下。";
    PresetBigPromoProtected => "Big promo, protected", "大促：有保护";
    PresetBigPromoProtectedStory => "Source 003's protection chain: an entry rate limit (429 + Retry-After) turns excess requests away first; the product service calls recommendations through {order} (a breaker, a 150 ms timeout, a bulkhead of 20 with no queue, in that order from the caller out) and serves the hot list as a fallback; the order path keeps its own bulkhead. Of the orders let in, ≥ 99.9 % succeed (the surge beyond the entry's limit gets a 429), while recommendations degrade visibly.",
        "文档 003 的保护链：入口限流（429 + Retry-After）最先拒绝多余请求；商品服务调用推荐服务时依次经过{order}（即熔断器、150 ms 超时、并发 20 且不排队的舱壁，自调用方起由外向内），失败时返回热门榜兜底；订单链路有自己独立的舱壁。被接纳的订单中 ≥ 99.9% 成功（超出入口上限的突发流量收到 429），推荐则明显降级。";
    PresetBreakerDemo => "Circuit breaker", "熔断器";
    PresetBreakerDemoStory => "Inventory fails every call from 3 s to 8 s. The breaker (window 20, ≥ 50 % failures) opens, half-opens after 2 s with 3 probes, opens again while the failure lasts and closes once the probes succeed: CLOSED → OPEN ⇄ HALF_OPEN → CLOSED.",
        "库存服务在 3 s 到 8 s 之间全部失败。熔断器（窗口 20、失败率 ≥ 50%）打开，2 s 后半开放行 3 个探测，故障持续时再次打开，探测成功后关闭。状态变化：关闭 → 打开 ⇄ 半开 → 关闭（CLOSED → OPEN ⇄ HALF_OPEN → CLOSED）。";
    PresetBulkhead => "Bulkheads: shared vs isolated", "舱壁：共享 vs 隔离";
    PresetBulkheadStory => "Source 003: the product service calls the order core and recommendations. With one shared pool of 8 threads (the page's run), slow recommendations take every thread and orders queue behind them; with isolated pools (side B of compare mode: recommendations 10, refused beyond, for this preset's load: source 003's bulkhead picture draws 2, its protection chain sets 20 with no queue; orders 4) orders are unaffected and recommendations degrade.",
        "文档 003：商品服务调用订单核心与推荐服务。共用一个 8 线程的池时（即页面上的这次运行），慢推荐调用占满所有线程，订单调用排在后面；改为各自独立的池后（见对比模式的 B 侧：推荐 10 个、超出即拒绝，按本预设的负载取值：文档 003 的隔离示意图画的是 2，保护链设为并发 20、队列 0；订单 4 个），订单不受影响，推荐降级。";
    PresetMetastable => "Metastable retry storm", "亚稳态重试风暴";
    PresetMetastableStory => "A server at 90 % utilisation slows ×3 for one second. Callers time out and retry, abandoned calls still take workers, and the retries keep it overloaded long after the trigger is gone. With a retry budget the storm dies out and the system recovers (side B of the retry-storm page's compare mode; the protection overlay on the stability map).",
        "利用率 90% 的服务器处理时间变为原来的 3 倍（×3），持续 1 s。调用方超时并重试，被放弃的调用仍占用工作线程，重试让过载在触发因素消失后长期持续。加上重试预算后风暴平息，系统恢复（见重试风暴页对比模式的 B 侧；稳定性地图上的保护叠加）。";

    // ---- breaker lab (?page=breaker) -----------------------------------------------------
    BlTitle => "Circuit breaker lab", "熔断器实验";
    BlIntro => "One caller, one breaker, one dependency whose health changes in phases. Each call is a cell: watch the window fill, the failure rate reach the threshold, and the breaker open, reject, probe and close. It is the breaker the retry-storm page runs.",
        "一个调用方、一个熔断器、一个健康状况分阶段变化的依赖。每次调用是一个格子：观察窗口被结果填满、失败率达到阈值，熔断器打开、快速拒绝、探测并关闭。它与重试风暴页运行的是同一个熔断器。";
    BlWindowHelp => "The calls (count-based) or seconds (time-based, 1 s buckets) the rates are taken over (≈ slidingWindowSize; source 003: 20 calls).",
        "计算比例所用的最近调用数（按次数）或秒数（按时间，1 s 一桶）（≈ slidingWindowSize；文档 003：20 次）。";
    BlWindowKind => "Window type", "窗口类型";
    BlWindowKindHelp => "Count-based: the last N calls. Time-based: the calls answered in the last N whole seconds (≈ slidingWindowType; opossum: rollingCountTimeout).",
        "按次数：最近 N 次调用。按时间：最近 N 个整秒内应答的调用（≈ slidingWindowType；opossum：rollingCountTimeout）。";
    BlOptCount => "count-based", "按次数";
    BlOptTime => "time-based", "按时间";
    BlSlowMs => "Slow-call threshold", "慢调用阈值";
    BlSlowMsHelp => "A call taking at least this long is slow (≈ slowCallDurationThreshold). 0 = off.",
        "耗时不少于此值的调用算慢调用（≈ slowCallDurationThreshold）。0 = 不考虑。";
    BlSlowPct => "Slow-call rate threshold", "慢调用比例阈值";
    BlSlowPctHelp => "Opens at or above this share of slow calls (≈ slowCallRateThreshold).",
        "慢调用占比达到或超过此值时打开（≈ slowCallRateThreshold）。";
    BlHalfOpen => "Half-open", "半开方式";
    BlHalfOpenHelp => "Lazy: the first call after the open time half-opens it (Resilience4j's default). Timed: a timer does, at the open time (automaticTransitionFromOpenToHalfOpenEnabled; opossum).",
        "惰性：打开时间过后的第一次调用使其半开（Resilience4j 默认）。定时：到点由定时器半开（automaticTransitionFromOpenToHalfOpenEnabled；opossum）。";
    BlRateHelp => "Calls the caller makes per second, whatever the breaker does with them. A run makes at most 20,000 calls, so rate × timeline stays within 20,000: at most 666.66/s over source 003's 30 s timeline, less over a longer one (the error names this timeline's bound).",
        "调用方每秒发起的调用数，不论熔断器如何处理。一次运行最多 20,000 次调用，因此速率 × 时间线不超过 20,000：文档 003 的 30 s 时间线最高 666.66 次/秒，时间线更长则更低（出错时会给出当前时间线的上限）。";
    BlUnitCallsPerS => "calls/s", "次/秒";
    BlUnitS => "s", "s";
    BlArrivalsHelp => "Evenly spaced calls meet evenly spread failures (50 %: every second call), so each transition follows from the settings; Poisson draws gaps and failures from the seed.",
        "均匀间隔的调用对应均匀分布的失败（50%：每两次失败一次），每次转换都可由设置推算；泊松方式按种子随机抽取间隔与失败。";
    BlSeedHelp => "Poisson only: the same seed gives the same calls.", "仅用于泊松方式：相同种子得到相同的调用。";
    BlSeedUnit => "#", "#";
    BlPhases => "Phases", "阶段数";
    BlPhasesHelp => "The dependency's timeline, 1–8 phases; a new one copies the last.", "依赖的时间线，1–8 个阶段；新增阶段沿用最后一个。";
    BlPhasesUnit => "phases", "个";
    BlPhase => "Phase {n}", "阶段 {n}";
    BlPhaseMs => "Length", "时长";
    BlPhaseMsHelp => "How long the phase lasts.", "该阶段持续的时间。";
    BlPhaseFail => "Failures", "失败比例";
    BlPhaseFailHelp => "Share of the calls it receives that fail (5xx, timeout).", "该阶段收到的调用中失败（5xx、超时）的比例。";
    BlPhaseLatency => "Latency", "延迟";
    BlPhaseLatencyHelp => "How long each call takes, failed or not.", "每次调用的耗时，无论成败。";
    BlDependency => "The dependency", "依赖";
    BlP003 => "Source 003: ≥ 20 calls, ≥ 50 %", "文档 003：≥ 20 次、≥ 50%";
    BlP003Story => "A window of 20 calls; the dependency is down from 5 s to 15 s. 10 failures in 20 open it (50 % ≥ 50 %); 5 s later 3 probes find it still down and it opens again; the next probes pass.",
        "窗口 20 次调用；依赖在 5 s 到 15 s 宕机。20 次中 10 次失败即打开（50% ≥ 50%）；5 s 后 3 个探测仍遇到宕机，再次打开；之后的探测成功。";
    BlP001 => "Source 001: 50 %, 30 s open", "文档 001：50%，打开 30 s";
    BlP001Story => "A 10 s time window, a dependency failing 60 % of calls: it opens when a healthy second falls out of the window, stays open 30 s, and closes only once probes pass.",
        "10 s 时间窗口，依赖 60% 的调用失败：健康的一秒滑出窗口时打开，保持打开 30 s，探测成功后才关闭。";
    BlP002 => "Source 002: opossum settings", "文档 002：opossum 配置";
    BlP002Story => "errorThresholdPercentage 50, resetTimeout 30 s on a timer, a 10 s rolling window, no volume threshold, one trial call. This lab opens at the threshold (≥); opossum only above it (>), here one failure later.",
        "errorThresholdPercentage 50、resetTimeout 30 s（定时器）、10 s 滚动窗口、无最小请求量、一次探测调用。本实验在达到阈值时（≥）打开；opossum 则要超过阈值（>）才打开，在这里就是晚一次失败。";
    BlPFlap => "A flapping dependency", "时好时坏的依赖";
    BlPFlapStory => "Probes find it down (half-open opens again), then catch a good moment and close too early.",
        "探测遇到宕机（半开再次打开），又赶上短暂恢复而过早关闭。";
    BlPSlow => "Slow, not failing", "只慢不错";
    BlPSlowStory => "Calls take 1.5 s against a 1 s slow-call threshold: the slow-call rate opens it without a single error; calls in flight answer too late to count.",
        "调用耗时 1.5 s，慢调用阈值 1 s：没有一个错误，慢调用比例也会打开熔断器；在途调用应答太晚，不再计入。";
    BlPassed => "Let through", "放行";
    BlRejected => "Rejected fast", "快速拒绝";
    BlProbes => "Probes", "探测";
    BlTransitions => "Transitions", "状态变化";
    BlCalls => "Calls, the latest {n}", "调用，最近 {n} 次";
    BlSlow => "slow", "慢";
    BlProbe => "probe", "探测";
    BlPending => "no answer yet", "尚未应答";
    BlNotRecorded => "answered after the state changed: not recorded", "状态改变后才应答：不计入";
    BlWindowNotDrawn => "(the {n} oldest not drawn)", "（最早的 {n} 次未画出）";
    BlWindowNow => "Window: {calls}", "窗口：{calls}";
    BlWindowProbes => "Probes answered: {n} of {p}", "已应答探测：{n} / {p}";
    BlWindowOpened => "Opened on {calls}", "打开依据：{calls}";
    BlFailureRate => "failure rate", "失败率";
    BlSlowRate => "slow-call rate", "慢调用比例";
    BlRateLine => "{what} {rate} — threshold {thr}", "{what} {rate}（阈值 {thr}）";
    BlBelowMin => "Fewer than {min}: not judged yet.", "不足 {min}：尚不判断。";
    BlChange => "Change", "转换";
    BlCause => "Why", "原因";
    BlByRate => "{what} {rate} ≥ {thr}: {f} of {n}", "{what} {rate} ≥ {thr}：{n} 次中 {f} 次";
    BlProbesOk => "probes: {f} of {n} failed, {s} slow — below the thresholds", "探测：{n} 次中 {f} 次失败、{s} 次慢——低于阈值";
    BlWaitLazy => "open time over: the next call", "打开时间已过：下一次调用";
    BlWaitTimed => "open time over: the timer", "打开时间已过：定时器";
    BlStepHelp => "Go to the next call (→ on the slider).", "前进到下一次调用（也可在滑块上按 →）。";
    BlCallOf => "call {k} of {n}", "第 {k} / {n} 次调用";
    BlCallsAll => "all {n} calls", "全部 {n} 次调用";
    BlMapTitle => "The same settings in Resilience4j and opossum", "对应的 Resilience4j 与 opossum 配置";
    BlThisLab => "This lab", "本实验";
    BlDiffTitle => "Where this model differs", "本模型的不同之处";
    BlDiff1 => "The open time ends at ≥: a call exactly at open time + wait half-opens it; Resilience4j wants the clock strictly after (isAfter).",
        "打开期的结束按“≥”判断：恰好在“打开时刻 + 等待时长”到达的调用即可使熔断器半开；Resilience4j 要求时钟严格晚于该时刻（isAfter）。";
    BlDiff2 => "A call is slow at ≥ the threshold; Resilience4j: strictly longer (>).", "耗时 ≥ 阈值即算慢调用；Resilience4j 要求严格大于（>）。";
    BlDiff3 => "Rates are compared exactly, in basis points, not as a float; a count window's minimum may not exceed it (Resilience4j lowers it to the window).",
        "比例按万分之一精确比较，而非浮点数；按次数窗口的最小调用数不得超过窗口（Resilience4j 会把它降为窗口大小）。";
    BlDiff4 => "Time buckets are whole seconds of virtual time from t = 0, not of the wall clock; as in Resilience4j, an N s window spans N − 1 to N seconds.",
        "时间桶是从 t = 0 起的虚拟时间整秒，而非真实时间（挂钟时间）；与 Resilience4j 一样，N 秒窗口覆盖 N − 1 到 N 秒。";
    BlDiff5 => "An answer arriving after the state changed is dropped; Resilience4j records it in the new state (a late call can count as a probe).",
        "状态改变后才到达的应答被丢弃；Resilience4j 会把它记入新状态（迟到的调用可能被当作探测）。";
    BlDiff6 => "opossum opens above the threshold (>), judges on failures only, counts rejected calls in its total, and closes on one good trial.",
        "opossum 超过阈值（>）才打开，只依据失败判断，总数包含被拒绝的调用，一次探测成功即关闭。";
    // ---- retry-storm controls ------------------------------------------------------------
    GroupLoad => "Load", "负载";
    GroupDeadline => "Deadline and timeouts", "截止时间与超时";
    GroupRetry => "Retries, backoff and jitter", "重试、退避与抖动";
    GroupBudget => "Retry budget", "重试预算";
    GroupAdmission => "Admission", "准入";
    GroupWorkers => "Workers and queue", "工作线程与队列";
    GroupBulkhead => "Bulkhead", "舱壁";
    GroupBreaker => "Circuit breaker", "熔断器";
    GroupFallback => "Fallback", "降级兜底";
    GroupService => "Service behaviour", "服务行为";
    GroupFaults => "Fault injection", "故障注入";
    LessonKnobs => "Lesson knobs", "课程参数";
    LessonKnobsHelp => "The few controls this preset's lesson turns (and any you changed). Every other setting is under “All knobs”.", "本预设的课程要拨动的几个控件（以及你改过的）。其余设置都在“全部参数”里。";
    AllKnobs => "All knobs", "全部参数";
    LessonOnly => "Lesson knobs only", "只看课程参数";
    GroupSlo => "Objective (SLO)", "目标（SLO）";
    UnitRequests => "requests", "个请求";
    UnitTokens => "tokens", "令牌";
    UnitTokensPerS => "tokens/s", "令牌/秒";
    UnitCalls => "calls", "次调用";
    UnitCall => "call", "次调用";
    UnitRequest => "request", "个请求";
    UnitToken => "token", "令牌";
    UnitCredits => "credits", "个额度单位";
    UnitCredit => "credit", "个额度单位";
    // Calls at one moment (a limit, a queue, a pool's use), not counted over time.
    UnitCallsAtOnce => "calls", "个调用";
    UnitWorkers => "workers", "个线程";
    UnitWorker => "worker", "个线程";
    UnitPercent => "%", "%";
    UnitInstances => "instances", "个实例";
    UnitProbability => "fraction (0–1)", "比例（0–1）";
    KRate => "Arrival rate", "到达率";
    KRateHelp => "Average original requests per second entering the first layer, before the peak factor.",
        "每秒进入第一层的原始请求平均数（峰值系数之前）。";
    KPeak => "Peak factor", "峰值系数";
    KPeakHelp => "Multiplies the arrival rate (source 000: ×5 at peak).", "乘以到达率（文档 000：峰值 ×5）。";
    KDuration => "Duration", "持续时间";
    KDurationHelp => "How long requests keep arriving, in virtual time.", "请求持续到达的虚拟时间长度。";
    KRequests => "Requests at once", "同时到达的请求";
    KRequestsHelp => "All requests arrive together at t = 0 (source 000's lab: 100).", "所有请求在 t = 0 同时到达（文档 000 实验：100 个）。";
    KPattern => "Arrivals", "到达方式";
    KPatternHelp => "A batch at t = 0, evenly spaced arrivals, or a Poisson process (random, independent gaps).",
        "t = 0 的一批、均匀间隔，或泊松过程（随机且相互独立的间隔）。";
    OptBatch => "batch at t = 0", "t = 0 一批";
    OptConstant => "evenly spaced", "均匀间隔";
    OptPoisson => "Poisson", "泊松";
    KSlo => "Success objective", "成功率目标";
    KSloHelp => "The SLO: the share of admitted requests the entry must answer (succeeded or degraded). Its error budget is the failures it allows; requests the entry turns away (a 429 from its rate or concurrency limit, a 503 from its full or timed-out queue) are counted apart. A 4xx answer counts as a failure here (the user got no answer), though many SLIs leave 4xx out. Drawn on the outcome chart as a dashed line.", "SLO：入口接纳的请求中必须得到回答（成功或降级）的比例。错误预算即它允许的失败数；被入口拒绝的请求（因速率或并发上限返回 429，或因队列已满、排队超时返回 503）单独计数。4xx 回答在这里算作失败（用户没有得到回答），但许多 SLI 不计 4xx。在结果图上画成虚线。";
    KCancel => "Cancel on timeout", "超时即取消";
    KCancelHelp => "On: a caller's timeout cancels the work it abandoned. Off: the callee keeps working and holding its worker. Many stacks do signal cancellation (gRPC cancels the server's context, Envoy resets the stream, Resilience4j TimeLimiter cancels the future by default), but work that never checks for it (a blocking query, a busy thread) runs on: a timeout is not a cancellation unless the callee acts on it.",
        "开：调用方超时会取消被放弃的工作。关：被调方继续工作并占着线程。许多框架会发出取消信号（gRPC 取消服务端 context，Envoy 重置流，Resilience4j TimeLimiter 默认取消 Future），但不检查取消的工作（阻塞查询、忙碌的线程）仍会继续：被调方不响应，超时就不等于取消。";
    OptOff => "off", "关";
    KFaultKind => "Kind", "类型";
    KFaultTarget => "Acts on", "作用于";
    KFaultTargetHelp => "The service the window slows down, fails or takes down: the leaf or a side dependency.", "该时间窗作用的服务：叶子服务或某个旁路依赖。";
    GroupShape => "Shape", "结构";
    KLayers => "Layers", "层数";
    KLayersHelp => "Retrying layers before the leaf, the entry included (1–8). A new layer copies the last one's settings, so 3 layers of 3 attempts give 3³ = 27× and 5 give 3⁵ = 243×. − removes the last layer before the leaf, with its side dependencies and the fault windows on them (Reset to preset brings the preset's back).",
        "叶子服务之前带重试的层数，含入口（1–8）。新增的层沿用最后一层的设置，所以 3 层 × 3 次尝试是 3³ = 27 倍，5 层是 3⁵ = 243 倍。− 会移除叶子之前的最后一层，连同它的旁路依赖及作用于它们的故障时间窗（“恢复预设”可找回预设中的设置）。";
    KFaults => "Fault windows", "故障时间窗";
    KFaultsHelp => "Windows of injected trouble. A new window slows the leaf ×5 during the second quarter of the run (for a batch, 1–2 s, which a batch served at once, such as lab 11’s, never reaches: move its start and end); set its kind, target, start and end below.",
        "注入故障的时间窗。新增的时间窗在运行的第二个四分之一时段让叶子服务的处理时间变为原来的 5 倍（到达模式为“t = 0 一批”时为 1–2 s，像实验 11 这样一次到达、很快处理完的批次碰不到它：请移动其开始与结束时间）；可在下方设置类型、作用对象、开始与结束时间。";
    KSides => "Side dependencies", "旁路依赖";
    KSidesHelp => "Other services this layer calls in parallel with the next hop (0–3). A new one copies the layer's last, or is a recommendation-like service the layer can do without.",
        "该层与下一跳并行调用的其他服务（0–3 个）。新增的依赖沿用该层最后一个的设置，或是一个类似推荐、该层缺了它也能应答的服务。";
    StepperLess => "fewer: {what}", "减少：{what}";
    StepperMore => "more: {what}", "增加：{what}";
    KFaultKindHelp => "What the window does: slows the service's work (latency ×factor), replaces its error rate, takes it down (every call fails at once), or multiplies the arrivals (a traffic surge).",
        "该时间窗做什么：让服务变慢（延迟 ×倍数）、替换其错误率、使其宕机（每个调用立即失败），或让到达量成倍增加（流量激增）。";
    OptLatency => "latency", "延迟";
    OptErrors => "errors", "错误";
    OptDown => "down", "宕机";
    OptSurge => "traffic surge", "流量激增";
    OptOn => "on", "开";
    OptNone => "none", "无";
    KDeadline => "Total deadline", "总截止时间";
    KDeadlineHelp => "Budget set when a request enters this layer, passed down as the remaining time (≈ gRPC deadline / grpc-timeout; Envoy route timeout). On a lower layer it shortens a longer deadline from above; the earlier one wins, as in gRPC. 0 = none. Source 000: 250 ms.",
        "请求进入该层时设定的截止时间（总时间预算），以剩余时间向下传递（≈ gRPC deadline / grpc-timeout；Envoy route timeout）。设在下层时，它会缩短上层传来的更长截止时间：取较早者，与 gRPC 相同。0 = 不设。文档 000：250 ms。";
    KPerTry => "Per-try timeout", "单次超时";
    KPerTryHelp => "Longest wait for one attempt, including the wait for a bulkhead slot; the actual wait is min(this, remaining budget) (≈ Envoy per_try_timeout, Resilience4j TimeLimiter; whether the callee's work stops is the cancel-on-timeout switch). 0 = none.",
        "单次尝试的最长等待，包括等待舱壁名额；实际等待为 min(此值, 截止前剩余时间)（≈ Envoy per_try_timeout、Resilience4j TimeLimiter；被调方的工作是否停止由“超时即取消”开关决定）。0 = 不设。";
    KMinUseful => "Minimum useful time", "最小有用时间";
    KMinUsefulHelp => "An attempt is only made if at least this much budget remains, checked before the backoff sleep and before each attempt (source 000). 0 = any time left.",
        "只有截止前剩余时间不少于此值时才发起尝试；在退避睡眠前和每次尝试前检查（文档 000）。0 = 有剩余即可。";
    KAttempts => "Attempts", "尝试次数";
    KAttemptsHelp => "Attempts per call, the first included (≈ gRPC and Resilience4j maxAttempts; gRPC caps it at 5). Timeouts, 5xx and 429 are retried, a 429 no sooner than its Retry-After (the longer of it and the backoff); other 4xx never. A layer that gives up answers its caller a 5xx, which the caller retries too: the model has no “overloaded, do not retry” answer.",
        "每次调用的尝试次数，含首次（≈ gRPC、Resilience4j 的 maxAttempts；gRPC 最多为 5）。超时、5xx 和 429 会重试，429 不早于其 Retry-After（取它与退避中较长者）；其他 4xx 从不重试。某层放弃时向调用方返回 5xx，调用方同样会重试：模型没有“已过载、请勿重试”的回答。";
    KBackoff => "Backoff", "退避";
    KBackoffHelp => "Wait before a retry: none, fixed, or exponential base·2^(n−1) up to a cap (≈ gRPC initialBackoff/backoffMultiplier/maxBackoff; gRPC always adds full jitter and lets the multiplier be set, here it is 2). A server's Retry-After wins if longer.",
        "重试前的等待：无、固定，或指数 base·2^(n−1) 封顶（≈ gRPC initialBackoff/backoffMultiplier/maxBackoff；gRPC 总是加全抖动（full jitter），倍数可配置，这里固定为 2）。服务端 Retry-After 更长时以其为准。";
    OptFixed => "fixed", "固定";
    OptExponential => "exponential", "指数";
    KBackoffMs => "Backoff base", "退避基数";
    KBackoffMsHelp => "The fixed wait, or the first wait of exponential backoff (source 000: 20 ms; source 003: 50 → 100 → 200 ms).",
        "固定等待，或指数退避的第一次等待（文档 000：20 ms；文档 003：50 → 100 → 200 ms）。";
    KBackoffCap => "Backoff cap", "退避上限";
    KBackoffCapHelp => "Longest exponential wait (source 001: MaxSleep 3 s).", "指数退避的最长等待（文档 001：MaxSleep 3 s）。";
    KJitter => "Jitter", "抖动";
    KJitterHelp => "Randomises the wait so synchronised clients do not retry in lock-step: full = random(0, t), equal = t/2 + random(0, t/2), decorrelated = min(cap, random(base, 3·previous)). It spreads retries in time; it does not reduce how many there are.",
        "随机化等待，避免同步客户端齐步重试：全抖动 = random(0, t)；等分抖动 = t/2 + random(0, t/2)；去相关抖动 = min(上限, random(基数, 3 × 上次))。它把重试在时间上摊开，但不减少重试次数。";
    OptFull => "full", "全抖动（full）";
    OptEqual => "equal", "等分抖动（equal）";
    OptDecorrelated => "decorrelated", "去相关抖动（decorrelated）";
    KRetryTimeouts => "Retry timeouts", "超时后重试";
    KRetryTimeoutsHelp => "Whether an attempt that timed out is retried (its result is unknown: the first may still succeed — writes need an idempotency key).",
        "超时的尝试是否重试（结果未知：第一次可能仍会成功——写操作需要幂等键）。";
    KBudget => "Retry budget", "重试预算";
    KBudgetHelp => "Caps the extra load of retries. Ratio (source 001): starts full; each successful first attempt deposits the ratio, a retry spends one token; empty, it refuses retries, so in a total outage retries stop. gRPC's retryThrottling (gRFC A6) differs: failures take 1, successes add the ratio, retries only while tokens > max/2. A token spent on a retry that a breaker or bulkhead then refuses is not given back.",
        "限制重试带来的额外负载。比例桶（文档 001）：初始为满；每个成功的首次请求存入比例值，一次重试花费一个令牌；桶空即拒绝重试，所以完全故障时重试停止。gRPC 的 retryThrottling（gRFC A6）不同：失败减 1，成功加比例值，令牌 > 上限/2 时才允许重试。某次重试已花费令牌、随后被熔断器或舱壁拒绝时，令牌不退还。";
    OptRatio => "ratio bucket", "比例令牌桶";
    OptGrpc => "gRPC throttling", "gRPC 重试节流";
    KBudgetMax => "Budget size", "预算容量";
    KBudgetMaxHelp => "Bucket size and starting level (source 001: max_tokens 100; gRPC maxTokens).", "桶容量与初始值（文档 001：max_tokens 100；gRPC maxTokens）。";
    KBudgetRatio => "Budget ratio", "预算比例";
    KBudgetRatioHelp => "Tokens a successful first attempt earns (source 001: retry_ratio 0.1 ≈ retries ≤ 10 % of successful first attempts). In gRPC mode: tokenRatio, added on every success; retries stop once failures outpace it.",
        "每个成功的首次请求获得的令牌（文档 001：retry_ratio 0.1 ≈ 重试不超过成功首次请求的 10%）。gRPC 模式：tokenRatio，每次成功都加；失败速度超过它时重试停止。";
    KRateLimit => "Rate limit", "限流速率";
    KRateLimitHelp => "Token bucket refill rate; over it, calls get 429 with Retry-After at once (source 002: integer credits, starts full, rejections consume nothing; ≈ Envoy local_ratelimit tokens_per_fill ÷ fill_interval, e.g. with fill_interval 1 s; Envoy adds them in steps, this model continuously). 0 = none.",
        "令牌桶补充速率；超过时立即返回 429 并带 Retry-After（文档 002：令牌按整数记账、初始为满、拒绝不扣令牌；≈ Envoy local_ratelimit 的 tokens_per_fill ÷ fill_interval，例如 fill_interval 取 1 s；Envoy 按阶梯补充，本模型连续补充）。0 = 不限。";
    KBurst => "Burst", "突发容量";
    KBurstHelp => "Bucket capacity: the largest burst admitted at one instant when the bucket is full; it does not limit calls in flight, which is the concurrency limit's job (source 003: a bucket of 5 meets 8 requests → 5 × 200, 3 × 429; ≈ Envoy max_tokens).",
        "令牌桶容量：桶满时同一瞬间能接纳的最大突发量；它不限制在途调用数，那是并发上限的事（文档 003：容量 5 遇到 8 个请求 → 5 × 200、3 × 429；≈ Envoy max_tokens）。";
    KConcurrency => "Concurrency limit", "并发上限";
    KConcurrencyHelp => "Most calls admitted and not finished; beyond it, 429 at once even with tokens left (source 002's second gate). Servers differ on the code: Envoy's adaptive concurrency and uvicorn answer 503, as a full queue does here; callers retry both alike, as overload. 0 = none.",
        "已接纳且未结束的最多调用数；超出时即使有令牌也立即 429（文档 002 的第二道门槛）。各服务器用的状态码不同：Envoy 的 adaptive concurrency 与 uvicorn 返回 503，与这里队列已满时相同；调用方对两者的重试方式一样，都视为过载。0 = 不限。";
    KWorkers => "Workers", "工作线程";
    KWorkersHelp => "Threads or connections serving calls at once; a caller's worker is held while it waits for its own dependencies. 0 = unlimited.",
        "同时处理调用的线程或连接数；调用方在等待依赖期间一直占着自己的线程。0 = 不限。";
    KQueue => "Queue limit", "队列上限";
    KQueueHelp => "Calls that may wait for a worker; a full queue answers 503 with Retry-After. 0 = unbounded (the source documents' warning: unbounded is another name for avalanche).",
        "可以排队等待线程的调用数；队列满时返回 503 并带 Retry-After。0 = 无上限（源文档的警告：无限就是雪崩的别名）。";
    KQueueTimeout => "Queue timeout", "排队超时";
    KQueueTimeoutHelp => "Longest wait for a worker before the call is dropped with 503. 0 = wait forever.", "等待线程的最长时间，超时则以 503 丢弃。0 = 一直等待。";
    KPool => "Pool", "线程池";
    KPoolHelp => "Own: this dependency's calls are limited by its own bulkhead. Shared: they draw from the layer's shared pool, like every other shared dependency (source 003's counter-example).",
        "独立：该依赖的调用受自己的舱壁限制。共享：与其他共享依赖一起使用本层的共享线程池（文档 003 的反例）。";
    OptOwn => "own", "独立";
    OptShared => "shared", "共享";
    KBulkhead => "Bulkhead size", "舱壁并发";
    KBulkheadHelp => "Calls to this dependency allowed at once (≈ Resilience4j maxConcurrentCalls; source 003's protection chain: recommendations 20, no queue; its bulkhead picture draws 2). 0 = no bulkhead.",
        "同时允许的对该依赖的调用数（≈ Resilience4j maxConcurrentCalls；文档 003 的保护链：推荐 20、无队列；其隔离示意图画的是 2）。0 = 无舱壁。";
    KBulkheadQueue => "Bulkhead queue", "舱壁队列";
    KBulkheadQueueHelp => "Calls that may wait for a bulkhead slot; 0 = refuse at once when full (≈ maxWaitDuration 0; a count of waiters is ThreadPoolBulkhead's queueCapacity).", "可以等待舱壁名额的调用数；0 = 满了立即拒绝（≈ maxWaitDuration 0；等待数上限对应 ThreadPoolBulkhead 的 queueCapacity）。";
    KSharedPool => "Shared pool", "共享线程池";
    KSharedPoolHelp => "Threads all shared dependencies of this layer draw from (source 003: 8). 0 = none.", "本层所有共享依赖共用的线程数（文档 003：8）。0 = 无。";
    KBreaker => "Circuit breaker", "熔断器";
    KBreakerHelp => "Count-based window; opens when the failure rate reaches the threshold (≥), rejects while open, then lets a few probes through. Lazy: half-opens on the first call after the open time (Resilience4j default); timed: exactly when it ends (automaticTransitionFromOpenToHalfOpenEnabled).",
        "基于次数的滑动窗口；失败率达到阈值（≥）时打开，打开期间快速拒绝，之后放行少量探测。惰性：打开时间过后的第一次调用才半开（Resilience4j 默认）；定时：到点即半开（automaticTransitionFromOpenToHalfOpenEnabled）。";
    OptLazy => "lazy half-open", "惰性半开";
    OptTimed => "timed half-open", "定时半开";
    KWindow => "Window", "统计窗口";
    KWindowHelp => "Calls in the sliding window (≈ slidingWindowSize; source 003: 20). Retries count; the breaker's own rejections do not.",
        "滑动窗口内的调用数（≈ slidingWindowSize；文档 003：20）。重试计入；熔断器自己的拒绝不计入。";
    KMinCalls => "Minimum calls", "最小调用数";
    KMinCallsHelp => "Calls needed before the rate is judged (≈ minimumNumberOfCalls); low-traffic services may never reach it.",
        "判断失败率前所需的调用数（≈ minimumNumberOfCalls）；低流量服务可能永远达不到。";
    KFailurePct => "Failure threshold", "失败率阈值";
    KFailurePctHelp => "Opens at or above this failure rate, as Resilience4j's failureRateThreshold and source 003 (≥ 50 %); source 001 says above 50 %, so a rate of exactly 50 % opens here and not in its wording.", "失败率达到或超过此值时打开，与 Resilience4j 的 failureRateThreshold 和文档 003（≥ 50%）一致；文档 001 写作“超过 50%”，恰好 50% 时这里会打开，按其字面则不会。";
    KOpenMs => "Open time", "打开时长";
    KOpenMsHelp => "How long it rejects before probing (≈ waitDurationInOpenState; source 001: 30 s). Waiting is not proof of recovery.",
        "探测前持续拒绝的时间（≈ waitDurationInOpenState；文档 001：30 s）。等够时间不代表依赖已恢复。";
    KHalfOpen => "Probes", "探测数";
    KHalfOpenHelp => "Calls let through in half-open; extra calls are rejected (≈ permittedNumberOfCallsInHalfOpenState).", "半开时放行的调用数；多余调用被拒绝（≈ permittedNumberOfCallsInHalfOpenState）。";
    KInstances => "Client instances", "客户端实例数";
    KInstancesHelp => "Each instance has its own breaker; many instances half-opening together make a new burst (source 000).", "每个实例有自己的熔断器；许多实例同时半开会形成新的突发（文档 000）。";
    KFallback => "Fallback", "降级";
    KFallbackHelp => "What answers when this dependency fails. Unavailable: the caller answers without it and says so — in source 000 recommendation_status=unavailable with an empty list, distinct from a computed empty list; for a payment, 'status unknown, we will confirm'. Stale: a hot list or cache labelled with its age (source 003). None: the failure fails the response.",
        "该依赖失败时由什么应答。不可用：调用方不带它作答并明确说明——文档 000 中是 recommendation_status=unavailable 加空列表，与“计算结果为空”区分；对支付而言是“结果未知，稍后确认”。过期：带数据时间的热门榜或缓存（文档 003）。无：失败即整个响应失败。";
    OptUnavailable => "unavailable + empty list", "标记不可用 + 空列表（unavailable）";
    OptStale => "stale / hot list", "过期数据 / 热门榜";
    KStaleAge => "Fallback age", "兜底数据年龄";
    KStaleAgeHelp => "Age of the stale or hot-list data, shown with it.", "过期或热门榜数据的年龄，会随结果标注。";
    KLayerWork => "Own work", "自身处理时间";
    KLayerWorkHelp => "Time this layer spends itself per call before calling downstream. 0 = none.", "该层每次调用在请求下游之前自身花费的时间。0 = 无。";
    KDist => "Latency shape", "处理时间分布";
    KDistHelp => "Constant, exponential (memoryless), or log-normal given by median and p99 (how latency is usually quoted: “p99 2 s”).",
        "常数、指数（无记忆），或由中位数和 p99 给出的对数正态（延迟通常这样描述：“p99 2 s”）。";
    OptConstantDist => "constant", "固定值";
    OptExponentialDist => "exponential", "指数";
    OptLogNormal => "log-normal", "对数正态";
    KWorkMs => "Latency", "处理时间";
    KWorkMsHelp => "How long each call holds a worker: the constant time, the mean, or the median.", "每次调用占用线程的时间：常数、均值或中位数。";
    KP99 => "Latency p99", "处理时间 p99";
    KP99Help => "99th percentile of the log-normal latency (source 003's incident: recommendations at p99 2 s).", "对数正态延迟的第 99 百分位（文档 003 事故：推荐 p99 2 s）。";
    KErrorRate => "Error rate", "错误率";
    KErrorRateHelp => "Probability a call ends in a retryable 5xx after its work.", "调用处理完后以可重试 5xx 结束的概率。";
    KClientErrorRate => "4xx rate", "4xx 比例";
    KClientErrorRateHelp => "Probability a call ends in a 4xx (a bad request, not found): the caller's fault, so no policy retries it, and this model's breakers do not count it (Resilience4j counts every exception by default; a 4xx is left out only when listed in ignoreExceptions). With the error rate, at most 1.",
        "调用以 4xx 结束（请求错误、资源不存在）的概率：这是调用方的问题，任何策略都不会重试它，本模型的熔断器不计入它（Resilience4j 默认把所有异常都计为失败；只有列入 ignoreExceptions 的 4xx 才不计）。与错误率之和至多为 1。";
    KEmptyRate => "Empty results", "空结果比例";
    KEmptyRateHelp => "Probability a successful call returns a computed empty list — a real answer, counted apart from “unavailable”.", "成功调用返回“计算结果为空”的概率——这是真实结果，与“不可用”分开统计。";
    KFaultStart => "Fault start", "故障开始";
    KFaultStartHelp => "When the fault window opens (virtual time).", "故障窗口开始的虚拟时间。";
    KFaultEnd => "Fault end", "故障结束";
    KFaultEndHelp => "When it closes; watch whether the system recovers afterwards.", "窗口结束时间；观察之后系统能否恢复。";
    KFaultFactor => "Fault factor", "故障倍数";
    KFaultFactorHelp => "Latency multiplier of the target, or arrival multiplier of a traffic surge (source 003's promo: traffic ×5, and recommendations slowed to a p99 of about 2 s).",
        "目标服务的延迟倍数，或流量突增的到达倍数（文档 003 的大促：流量 ×5，推荐服务 p99 慢到约 2 s）。";
    KFaultRate => "Fault error rate", "故障错误率";
    KFaultRateHelp => "Error probability of the target while the window is open.", "窗口期间目标服务的错误概率。";

    // ---- retry-storm page -----------------------------------------------------------------
    StormNav => "Retry storm", "重试风暴";
    StormTitle => "Retry storm lab", "重试风暴实验";
    StormIntro => "Move a slider and the whole chain is simulated again in virtual time. Watch retries multiply down the chain, queues and pools fill, breakers open and requests degrade instead of failing — then turn on deadlines, budgets, admission, bulkheads and breakers and watch the storm die down.",
        "拖动滑块，整条调用链会在虚拟时间中重新模拟。观察重试沿链路成倍增加、队列和线程池被占满、熔断器打开、请求降级而非失败——再打开截止时间、重试预算、准入、舱壁和熔断，看风暴如何平息。";
    Preset => "Preset", "预设场景";
    PresetHelp => "Scenarios from the source documents; each opens with its story. Your changes are kept in the link.",
        "来自源文档的场景，每个都附带说明。你的改动会保存在链接中。";
    Seed => "Seed", "随机种子";
    SeedHelp => "The same scenario and seed always give the same run, here and in the command line (lab run --seed). Traffic is drawn per request, so sides A and B see the same requests while their load settings agree (a load you change applies to side A only).",
        "相同的场景和种子总是得到相同的运行结果，网页与命令行（lab run --seed）一致。流量按请求抽取，因此只要两侧的负载设置相同，A、B 两侧看到的就是同样的请求（你修改的负载只作用于 A 侧）。";
    NewSeed => "New seed", "换一个种子";
    StabSeedHelp => "Every cell runs with this seed: the same sweep and seed always give the same map, here and in the command line (lab sweep --seed). Another seed may move cells near the boundary.",
        "每一格都用这个种子运行：相同的扫描和种子总是得到相同的地图，网页与命令行（lab sweep --seed）一致。换一个种子，边界附近的格子可能改变。";
    NewSeedHelp => "Draw a different seed: same scenario, different luck.", "换一个种子：场景不变，运气不同。";
    Compare => "Compare A / B", "对比 A / B";
    CompareHelp => "Run side B on the same seed and traffic: the preset's comparison scenario (e.g. protected vs unprotected), or the unedited preset against your changes.",
        "在同一种子、同一流量下运行 B 侧：预设的对比场景（如有保护 vs 无保护），或未修改的预设对比你的改动。";
    CopyLink => "Copy link", "复制链接";
    CopyLinkHelp => "The link holds the page, preset, seed, language, compare mode and every changed setting.", "链接包含页面、预设、种子、语言、对比模式以及所有改动过的设置。";
    LinkCopied => "Link copied", "链接已复制";
    ResetPreset => "Reset to preset", "恢复预设";
    StoryAsLoaded => "The preset as loaded; the settings now differ from it, changed here or by the link that opened this page (Reset to preset brings it back):",
        "下面的说明针对预设的原始设置；当前设置已被修改（在本页或通过打开本页的链接），点击“恢复预设”可还原：";
    ResetPresetHelp => "Undo every change to this preset.", "撤销对该预设的所有改动。";
    FromStormOption => "{what} (storm page)", "{what}（重试风暴页）";
    QFromStorm => "Opened from the retry-storm page with {what}'s pool: its workers, queue limit and work time; the calls per second reaching it, retries included, counted in the storm charts' whole buckets while the load arrives and before the first fault; arrivals evenly spaced if the storm's load is, else Poisson; and the capacity table's W the closed form's time in system. The storm's faults, timeouts and retries are not replayed: the pool gets a steady stream. Picking a preset replaces these settings; changing one makes them yours.",
        "从重试风暴页打开，使用{what}的线程池：工作线程数、队列上限与处理时间；每秒到达它的调用数（含重试，按风暴页图表的完整时间桶统计，取负载到达期间、首个故障之前）；风暴页的负载均匀时均匀到达，否则为泊松到达；容量表的 W 取闭式解的系统内时间。风暴中的故障、超时与重试都不重放：线程池收到的是平稳的到达流。选择其他预设会替换这些设置；改动任一设置后，它们就是你自己的设置。";
    AdmFromStorm => "Opened from the retry-storm page with {what}'s admission control: its token bucket and concurrency limit. The arrivals are the lab's own: one burst of three requests more than the bucket (or the limit) lets through at once. Picking a preset replaces these settings; changing one makes them yours.",
        "从重试风暴页打开，使用{what}的准入控制：令牌桶与并发上限。到达是本实验自己的：一次突发，比令牌桶（或并发上限）一次能放行的多 3 个请求。选择其他预设会替换这些设置；改动任一设置后，它们就是你自己的设置。";
    BlFromStorm => "Opened from the retry-storm page with the breaker on {what} (its window, thresholds and open time, as one instance); one instance's share of the calls per second reaching the dependency before the first fault, retries included (lowered where the lab's 20,000 calls would not cover the run); and the dependency's own faults as phases. The calls are drawn anew, with one latency per phase, so the counts differ from the storm page's while the transitions follow the same timeline. The lab does not time calls out: where the storm's breaker sees timeouts, calls slower than the timeout count as slow, judged at the failure threshold. Load surges and faults further down the chain are not replayed. Picking a preset replaces these settings; changing one makes them yours.",
        "从重试风暴页打开，使用{what}上的熔断器（窗口、阈值与打开时长，按单个实例）；首个故障之前每秒到达该依赖的调用数（含重试）中一个实例所占的份额（若本实验的 20,000 次调用覆盖不了整个运行则调低）；以及该依赖自身的故障（作为各阶段）。调用是重新抽取的，每个阶段只有一个时延，所以计数与风暴页不同，而状态转换遵循同一条时间线。本实验不会让调用超时：在风暴页中熔断器能看到超时的地方，比超时更慢的调用记为慢调用，并按失败阈值判定。负载突增和链路更下游的故障不重放。选择其他预设会替换这些设置；改动任一设置后，它们就是你自己的设置。";
    SideA => "A: your scenario", "A：你的场景";
    SideANamed => "A: {title}", "A：{title}";
    SideAChanged => "A: your scenario ({title}, changed)", "A：你的场景（基于{title}，已修改）";
    Difference => "B − A", "B − A";
    DifferenceAMinusB => "A − B", "A − B";
    DiffKey => "{a}  ·  {b}  ·  ( ) = {d}", "{a}  ·  {b}  ·  （ ）= {d}";
    TokensCredits => "{t} ({c})", "{t}（{c}）";
    BucketLevel => "{t} tokens ({c} credits)", "{t} 个令牌（{c} 个额度单位）";
    Running => "Simulating… {percent} %", "模拟中… {percent}%";
    RunFailed => "This scenario cannot run: {message}", "该场景无法运行：{message}";
    RunStoppedCalls => "The run stopped at {t} s: more than {limit} calls were alive at once. Queues and retries grew without bound — the system diverged. The charts show what happened up to then; requests still in flight count as unfinished.",
        "运行在 {t} s 时停止：同时存活的调用超过 {limit} 个。队列与重试无限增长——系统发散了。图表显示停止前发生的一切；仍在途的请求计为未完成。";
    RunStoppedWork => "The run stopped at {t} s after {limit} events, more than its work estimate allows. The charts show what happened up to then.",
        "运行在 {t} s 时停止：已处理 {limit} 个事件，超出工作量估计。图表显示停止前发生的一切。";
    TooMuchWork => "it implies up to {estimated} calls if every attempt is used, more than the browser runs ({cap}); shorten the duration, lower the rate or the attempts (the command line allows more).",
        "若用尽所有尝试，它最多会产生 {estimated} 次调用，超过浏览器可运行的上限（{cap}）；请缩短持续时间、降低速率或尝试次数（命令行允许更多）。";
    TooMuchWorkBatch => "it implies up to {estimated} calls if every attempt is used, more than the browser runs ({cap}); lower the number of requests or the attempts (the command line allows more).",
        "若用尽所有尝试，它最多会产生 {estimated} 次调用，超过浏览器可运行的上限（{cap}）；请减少请求数或尝试次数（命令行允许更多）。";
    UnknownParam => "The link has settings this page does not know and ignored: {keys}.", "链接中有本页不认识的设置，已忽略：{keys}。";
    RepeatedParam => "The link gives these settings more than once, with different values; the last of each is used: {keys}.",
        "链接中这些设置出现了不止一次且取值不同，各取最后一个值：{keys}。";
    UnknownStormParam => "The link has settings this page does not know, or that this preset does not have (a rate for a load that comes in one burst, a third layer of two), and ignored them: {keys}.", "链接中有本页不认识、或当前预设没有的设置（例如一次性突发负载的速率、只有两层时的第三层），已忽略：{keys}。";
    TargetRun => "Whole run", "整体";
    TargetLayer => "Layer {n}: {name}", "第 {n} 层：{name}";
    TargetLeaf => "Leaf: {name}", "叶子服务：{name}";
    TargetSide => "Dependency: {name} (called by {owner})", "依赖：{name}（由{owner}调用）";
    TargetFault => "Fault {n}: {what}", "故障 {n}：{what}";
    FaultLatency => "{target} slower ×{factor}", "{target}变慢 ×{factor}";
    FaultErrors => "{target} errors at {rate} %", "{target}错误率 {rate}%";
    FaultDown => "{target} down", "{target}宕机";
    FaultSurge => "traffic ×{factor}", "流量 ×{factor}";
    // headline figures
    HOriginal => "Original requests", "原始请求";
    HLeaf => "Leaf attempts", "下游尝试（叶子）";
    HAmplification => "Amplification", "放大倍数";
    HSucceeded => "Succeeded", "成功";
    HDegraded => "Degraded", "降级";
    HFailed => "Failed", "失败";
    HRejected => "Rejected at admission", "准入拒绝";
    HRetries => "Retries", "重试次数";
    HTimeouts => "Timeouts", "超时次数";
    HCoreSuccess => "Core success", "核心成功率";
    HCoreSuccessNote => "of admitted requests; counts degraded answers as served", "按已接纳的请求计；降级应答也算核心成功（“成功”一栏不含它们）";
    HP50 => "Latency p50", "延迟 p50";
    HP99 => "Latency p99", "延迟 p99";
    HMax => "Latency max", "最长延迟";
    HBudgetDenied => "Retry budget denied", "重试预算拒绝";
    HBudgetExhausted => "Deadline budget exhausted", "截止时间预算耗尽";
    HBreakerRejected => "Breaker rejected", "熔断拒绝";
    HBulkheadRejected => "Bulkhead rejected", "舱壁拒绝";
    HAbandoned => "Abandoned work", "被放弃的工作";
    HAbandonedNote => "calls worked on after nobody waited, at every hop added up", "无人等待后仍被处理的调用，各跳相加";
    HErrorBudget => "Error budget spent", "错误预算消耗";
    PercentPoints => "pp", "个百分点";
    HeadlineWholeRun => "Totals over the whole run, 0 – {end} s of virtual time",
        "整次运行的合计，虚拟时间 0 – {end} s";
    HeadlineWholeRunAB => "Totals over each whole run, A 0 – {a} s and B 0 – {b} s of virtual time",
        "各自整次运行的合计，虚拟时间 A 0 – {a} s、B 0 – {b} s";
    HeadlineChainBelow => " (the chain below shows the playhead's moment)", "（下方的调用链显示播放头所在时刻）";
    HErrorBudgetNote => "failed answers ÷ failures the SLO allows", "失败应答 ÷ SLO 允许的失败数";
    SloMet => "SLO {target} % met: {spent} failed of {allowed} allowed ({share} % of {admitted} admitted)", "SLO {target}% 达成：失败 {spent} 个，允许失败 {allowed} 个（已接纳 {admitted} 个请求的 {share}%）";
    SloRefusedApart => "({n} turned away by the entry, with a 429 from its rate or concurrency limit or a 503 from its full or timed-out queue, are counted apart, not against the objective)",
        "（被入口拒绝的 {n} 个请求——因速率或并发上限返回 429，或因队列已满、排队超时返回 503——单独计数，不计入目标）";
    SloBreached => "SLO {target} % breached: {spent} failed of {allowed} allowed ({share} % of {admitted} admitted)", "SLO {target}% 未达成：失败 {spent} 个，允许失败 {allowed} 个（已接纳 {admitted} 个请求的 {share}%）";
    ChartErrorBudget => "Error budget spent (cumulative)", "错误预算累计消耗";
    SeriesErrorBudget => "spent", "已消耗";
    SeriesSloTarget => "SLO: succeeded + degraded must reach this line", "SLO：成功+降级须达到此线";
    LimitErrorBudget => "whole budget", "全部预算";
    ErrorBudgetOffScale => "The run spends up to {times}× the budget ({peak} %); the chart stops at {scale} % so that the whole-budget line stays readable.",
        "本次运行最多花掉预算的 {times}×（{peak}%）；图只画到 {scale}%，以便看清“全部预算”线。";
    // playback
    Play => "Play", "播放";
    Pause => "Pause", "暂停";
    Step => "Step", "单步";
    StepHelp => "Advance one time bucket.", "前进一个时间桶。";
    Speed => "Speed", "速度";
    SpeedHelp => "1× plays the whole run in {s} seconds.", "1× 表示用 {s} s 播完整个运行。";
    SpeedOption => "{x}× · run in {s} s", "{x}×（{s} s 播完）";
    Scrub => "Virtual time", "虚拟时间";
    ScrubHelp => "Drag to any moment of the run; every picture shows that moment.", "拖动到运行中的任意时刻；所有图都显示该时刻。";
    PlayheadAt => "t = {t}", "t = {t}";
    ReducedMotion => "Reduced motion is on: showing the end state.", "已开启减少动态效果：直接显示最终状态。";
    // diagram
    DiagramTitle => "The chain at the playhead", "播放头时刻的调用链";
    DiagramScrolls => "(scroll sideways: {n} services)", "（左右滑动可看全部 {n} 个服务）";
    DiagramLabel => "Call chain diagram: each service with its policy stack, calls so far, busy workers and queue", "调用链示意图：每个服务的策略栈、累计调用、忙碌线程与队列";
    CallsSoFar => "calls {n}", "调用 {n}";
    BusyOf => "busy {busy}/{pool}", "忙碌 {busy}/{pool}";
    QueueN => "queue {n}", "排队 {n}";
    QueueOf => "queue {n}/{max}", "排队 {n}/{max}";
    BulkheadUse => "bulkhead {busy}/{size} · queue {queued}/{queue}", "舱壁 {busy}/{size} · 排队 {queued}/{queue}";
    SharedPoolTitle => "shared pool · {size} threads", "共享线程池 · {size} 线程";
    SharedPoolUse => "busy {busy}/{size} · queue {queued}/{queue}", "忙碌 {busy}/{size} · 排队 {queued}/{queue}";
    Unlimited => "∞", "∞";
    BadgeAdmission => "admission", "准入";
    HopFocus => "Highlight a hop's series:", "突出某一跳的曲线：";
    FaultShort => "fault {n}", "故障 {n}";
    LabLinksIntro => "Step through a hop's settings in a lab (each lab says what it took from here and what load it adds):",
        "到实验里逐步观察某一跳的设置（每个实验会说明它从这里取了什么、自己又加了什么负载）：";
    LabLinkAdmission => "{hop}'s admission →", "{hop}的准入 →";
    BreakerOpenLeft => "{s} s to a probe", "{s} s 后探测";
    BreakerOpensAt => "opens at ≥ {pct} % failed", "失败 ≥ {pct}% 即打开";
    BreakerWindow => "window {calls} calls (min {min}) · {rate} % failed", "窗口 {calls} 次（至少 {min}）· 失败 {rate}%";
    BreakerReopened => "reopened: {calls} probes, {rate} % failed", "重新打开：探测 {calls} 次，失败 {rate}%";
    BreakerReopenedSlow => "reopened: {calls} probes, too many slow", "重新打开：探测 {calls} 次，慢调用过多";
    BreakerOpenedOn => "opened on {calls} calls, {rate} % failed ≥ {pct} %", "在 {calls} 次调用、失败 {rate}% ≥ {pct}% 时打开";
    BreakerOpenedSlow => "opened on {calls} calls: too many slow calls", "在 {calls} 次调用时因慢调用过多而打开";
    LabLinkBreaker => "the breaker ({call}) →", "熔断器（{call}）→";
    LabLinkQueue => "{hop}'s workers and queue →", "{hop}的线程池与队列 →";
    BadgeDeadline => "deadline", "截止时间";
    StageRetry => "retry", "重试";
    BadgeRetry => "tries ×{n}", "尝试 ×{n}";
    BadgeBudget => "retry budget", "重试预算";
    BadgeBreaker => "breaker", "熔断";
    BadgeBulkhead => "bulkhead", "舱壁";
    BadgeShared => "shared pool", "共享池";
    BadgeTimeout => "timeout", "超时";
    BadgeFallback => "fallback", "兜底";
    FaultNowDown => "down", "宕机";
    FaultNowSlow => "×{f} slower", "变慢 ×{f}";
    FaultNowErrors => "{pct} errors", "错误率 {pct}";
    FaultNowTip => "A fault window is in force at the playhead: {what}.", "播放头所在时刻有故障时间窗生效：{what}。";
    TipAdmission => "Admission at {hop}: requests over its rate or concurrency limit are turned away at once (429, with Retry-After), before any work.", "{hop}的准入：超出速率或并发上限的请求立即被拒绝（429，带 Retry-After），不做任何处理。";
    TipRetry => "{call}: up to {n} tries of each call, the first included; which failures are retried and the backoff between tries are in the settings.", "{call}：每次调用最多尝试 {n} 次（含首次）；哪些失败会重试、两次尝试之间如何退避，见设置。";
    TipDeadline => "{call}: a try starts only while enough of the request's deadline is left; the deadline travels with the call.", "{call}：只有请求的截止时间还剩足够多时才开始一次尝试；截止时间随调用向下传递。";
    TipBudget => "{call}: a retry goes out only while the caller's retry budget has tokens (first tries earn them).", "{call}：只有调用方的重试预算还有令牌时才发出重试（首次尝试会挣得令牌）。";
    TipBreaker => "{call}: the circuit breaker refuses calls at once while it is open, after too many failed or slow calls in its window.", "{call}：窗口内失败或慢调用过多后熔断器打开，打开期间立即拒绝调用。";
    TipTimeout => "{call}: each try waits at most the per-try timeout, or what is left of the deadline if that is shorter; then the caller stops waiting.", "{call}：每次尝试最多等待单次超时，若截止时间剩余更短则等剩余时间；之后调用方不再等待。";
    TipBulkhead => "{call}: at most so many calls in flight at once (its bulkhead); the rest wait in its queue or are refused.", "{call}：同时在途的调用数有上限（舱壁）；其余的在其队列中等待或被拒绝。";
    TipShared => "{call}: each call holds a thread of the caller's pool, shared with its other calls: one slow dependency can take them all.", "{call}：每次调用占用调用方线程池中的一个线程，该池与其他调用共享：一个变慢的依赖可能占满它。";
    BadgeFallbackFor => "fallback for {to}", "为{to}兜底";
    SideCalledBy => "{caller} calls it with:", "{caller}调用它时：";
    MainCallsWith => "calls {callee} with:", "调用{callee}时：";
    StateClosed => "CLOSED", "关闭";
    BlAnnounce => "{at}: the breaker is {state}.", "{at}：熔断器处于{state}状态。";
    StateOpen => "OPEN", "打开";
    StateHalfOpen => "HALF-OPEN", "半开";
    OrderNote => "Badges read outermost first, in the order the engine ran them. {order}.", "徽章按由外到内排列，即引擎执行的顺序。{order}。";
    OrderClient => "{client}: {order}", "{client}：{order}";
    OrderAdmission => "{hop}: {admission} on arrival, before its own calls", "{hop}：请求到达时先做{admission}检查，再发出自己的调用";
    ClauseSep => "; ", "；";
    OrderCall => "call", "调用";
    // charts
    ChartLoad => "Offered load and attempts at each hop", "各跳的请求量与尝试次数";
    ChartInFlight => "In flight and queued at {hop}", "{hop}的在途与排队";
    // what a live region reads when a run finishes (state/announce.rs)
    AnnounceAll => "Run finished: {figures}.", "运行完成：{figures}。";
    AnnounceChanged => "Run finished, changed: {figures}.", "运行完成，变化：{figures}。";
    AnnounceMore => "and {n} more (on the cards)", "另有 {n} 项（见各卡片）";
    AnnounceSame => "Run finished: no figure changed.", "运行完成：各项数字没有变化。";
    AnnounceSideB => "B {label}", "B 侧{label}";
    AnnounceSimTime => "simulated time in system", "模拟的系统内时间";
    OverlayLoadTitle => "Calls reaching the leaf, A and B", "到达叶子服务的调用（A 与 B）";
    OverlayOutcomesTitle => "Answered and failed per second, A and B", "每秒应答与失败（A 与 B）";
    OverlayInSystemTitle => "Requests in the system, A and B", "系统内请求数（A 与 B）";
    OverlayLeafAttempts => "leaf calls", "下游尝试";
    OverlayAnswered => "answered (in full or degraded)", "已应答（完整或降级）";
    OverlayFailed => "failed or rejected", "失败或被拒";
    OverlayInSystem => "in the system", "在系统内";
    ViewLabel => "Compare view", "对比视图";
    ViewSideBySide => "Side by side", "并排";
    ViewOverlay => "Overlay", "叠加";
    ViewHelp => "Side by side draws A and B on shared axes; overlay draws them on the same charts, A solid and B dashed.",
        "并排视图在相同坐标轴上分别绘制 A 与 B；叠加视图把两者画在同一图表上，A 为实线、B 为虚线。";
    ChartSharedPool => "Threads busy and calls queued in {hop}'s shared pool", "{hop}共享线程池的忙碌线程与排队调用";
    ChartOutcomes => "Outcomes over time", "结果随时间变化";
    ChartBreaker => "Breaker state", "熔断器状态";
    ChartBudget => "Retry-budget tokens", "重试预算令牌";
    ChartLatency => "Latency by outcome", "各结果的延迟分布";
    LatencyLegend => "{outcome} ({n}): p50 {p50} ms (dashed), p99 {p99} ms (dotted)", "{outcome}（{n}）：p50 {p50} ms（虚线），p99 {p99} ms（点线）";
    ChartTimeline => "One request, attempt by attempt", "单个请求的每次尝试";
    SeriesOffered => "offered", "原始请求";
    SeriesBusy => "busy workers", "忙碌线程";
    // The queue lab's flat line beside the busy workers' peaks: their mean over the run.
    SeriesBusyMean => "busy workers, mean over the whole run", "忙碌线程（整次运行的平均值）";
    SeriesQueue => "queue", "队列";
    SeriesQueueMean => "queue, mean over the whole run", "队列（整次运行的平均值）";
    SeriesPool => "pool limit", "线程上限";
    SeriesOpen => "open", "打开";
    SeriesHalfOpen => "half-open", "半开";
    PerRequest => "leaf calls per request", "次下游尝试/请求";
    AxisTime => "virtual time (s)", "虚拟时间（s）";
    AxisLatency => "latency (ms, log scale)", "延迟（ms，对数坐标）";
    NoData => "Nothing to show yet.", "暂无数据。";
    TraceLabel => "Request #{n}: {outcome}, {ms}\u{a0}ms", "请求 #{n}：{outcome}，{ms}\u{a0}ms";
    TracePrev => "Previous request", "上一个请求";
    TraceNext => "Next request", "下一个请求";
    TraceTree => "Its attempt tree", "查看尝试树";
    TraceTreeHelp => "Open the attempt tree of this request below: every call it caused and where each branch stopped.",
        "在下方打开该请求的尝试树：它引发的每次调用，以及每个分支在哪里停下。";
    // attempt tree
    TreeSideBHelp => "The request of the same number in side B's run (with the same load and seed, the same arrival), and how side B's protections handled it. A request picked on either side (a bar, a timeline row) shows in both trees; the number box is in side A's tree.",
        "B 侧运行中同一编号的请求（负载与种子相同时即同一次到达），以及 B 侧的保护如何处理它。在任一侧选中的请求（柱子、时间线中的一行）会同时显示在两侧的树中；编号输入框在 A 侧的树中。";
    TreeTitle => "Why did it end so? The attempt tree", "为什么是这个结果？尝试树";
    TreeHelp => "Every call this request caused down the chain, to scale in time: which call made it, how it ended, and where each branch stopped and why. Without a pick it shows the sampled request above.",
        "这个请求沿调用链引发的每一次调用，按时间比例绘制：由谁发起、如何结束、每个分支在哪里停下以及原因。未选择时显示上方抽样的请求。";
    TreeFind => "Show me", "查看";
    TreeFindFailed => "a failed one", "一个失败的";
    TreeFindDegraded => "a degraded one", "一个降级的";
    TreeFindRejected => "a rejected one", "一个被拒绝的";
    TreeFindSlowest => "the slowest", "最慢的";
    TreeFindBreaker => "one cut by the breaker", "被熔断器切断的";
    TreeFindDeadline => "one cut by the deadline", "被截止时间切断的";
    TreeFindRetryBudget => "one cut by the retry budget", "被重试预算切断的";
    TreeFindBulkhead => "one cut by the bulkhead", "被舱壁切断的";
    TreeFindTimeout => "one that timed out", "一个超时的";
    TreeFindSampled => "the sampled one", "抽样的那个";
    TreeFindNone => "No request of this run ended at the entry for that cause (deeper down, a layer that gives up answers a 5xx: look under errors).", "本次运行没有请求因这个原因在入口结束（更深的层放弃时会回答 5xx：请到“错误（5xx）”下查找）。";
    TreeRequestLabel => "Request number", "请求编号";
    TreeRequestHelp => "0 = the first request to arrive. Side A's run traces this request whole (up to 4,000 calls and events); the link keeps it (request=N).",
        "0 = 最先到达的请求。A 侧的运行会完整追踪该请求（最多 4,000 个调用与事件）；链接会保存它（request=N）。";
    TreeShow => "Show", "显示";
    LatencyPick => "{count} up to {ms} ms: show the attempt tree of one of them (#{n})",
        "{count}，最长 {ms} ms：查看其中一个（#{n}）的尝试树";
    LatencyPickHint => "Click a bar (or Tab to the bars, move with the arrow keys and press Enter) to see the attempt tree of a request from it.",
        "点击某根柱子（或用 Tab 键进入柱子，方向键移动，再按回车）即可查看其中一个请求的尝试树。";
    // On a touch screen (no Tab key at hand).
    LatencyPickHintTouch => "Tap a bar to see the attempt tree of a request from it.", "轻点某根柱子即可查看其中一个请求的尝试树。";
    TreeMissing => "Request #{n} is not in this run: it has {count} requests (numbered from 0).",
        "本次运行没有请求 #{n}：共有 {count} 个请求（从 0 编号）。";
    TreeSummary => "Request #{n}: {outcome} after {ms} ms · {calls} ({per_hop})",
        "请求 #{n}：{ms} ms 后{outcome} · 共 {calls}（{per_hop}）";
    TreeStopsTitle => "Where branches stopped", "分支停止之处";
    TreeNoStops => "No branch was cut: every dependency answered on an attempt.", "没有分支被切断：每个依赖都在某次尝试中给出了回答。";
    TreeStopLine => "{caller} → {callee} at {ms} ms after {tries}: {cause}",
        "{caller} → {callee}，{ms} ms，{tries}之后：{cause}";
    TreeTries => "{n} tries", "{n} 次尝试";
    TreeOneTry => "1 try", "1 次尝试";
    TreeTry => "try {n}", "第 {n} 次";
    TreeCollapse => "Collapse below", "折叠其下";
    TreeCollapseHelp => "Hide the calls made below this hop (its own calls stay).", "隐藏该服务之下的调用（它自己的调用保留）。";
    TreeRowsCapped => "Showing the first {shown} of {total} calls; collapse a hop to see the rest.",
        "仅显示 {total} 次调用中的前 {shown} 次；折叠某一层可查看其余部分。";
    TreeDropped => "{n} spans and events past the trace's cap are not shown.", "超出追踪上限的 {n} 个调用与事件未显示。";
    TreeAxis => "ms since the request arrived", "请求到达后的时间（ms）";
    TreeFallback => "fallback answered: {which}", "由兜底回答：{which}";
    TreeFallbackStale => "stale hot list", "过期热门榜";
    TreeFallbackUnavailable => "“unavailable”", "“unavailable”（不可用）";
    TreeLegendStop => "branch stopped", "分支停止";
    StopDeadline => "deadline: too little time left for another try", "截止时间：剩余时间不够再试一次";
    StopRetryBudget => "the retry budget refused the retry", "重试预算拒绝了重试";
    StopBreaker => "the breaker was open", "熔断器处于打开状态";
    StopBulkhead => "the bulkhead was full", "舱壁已满";
    StopAttempts => "attempts exhausted", "尝试次数用尽";
    StopNotRetryable => "not retried (4xx, or a failure the policy does not retry)", "不重试（4xx，或策略不重试的失败）";
    ResultOk => "ok", "成功";
    ResultTimeout => "timed out", "超时";
    ResultError => "error (5xx)", "错误（5xx）";
    ResultOverload => "overloaded (429/503)", "过载（429/503）";
    ResultClientError => "client error (4xx)", "客户端错误（4xx）";
    ResultBreaker => "refused by the breaker", "被熔断器拒绝";
    ResultBulkhead => "refused by the bulkhead", "被舱壁拒绝";
    ResultBudget => "deadline exhausted", "截止时间耗尽";
    ResultRetryBudget => "retry budget denied", "重试预算拒绝";
    ResultCancelled => "cancelled", "已取消";
    RefusalRateLimit => "rate limit", "限流";
    RefusalConcurrency => "concurrency limit", "并发上限";
    RefusalCost => "cost above the bucket", "成本超过令牌桶容量";
    RefusalQueueFull => "queue full", "队列已满";
    RefusalQueueTimeout => "queue timeout", "排队超时";
    DeadlineLine => "deadline", "截止时间";
    LegendWork => "working", "处理中";
    LegendWait => "waiting for a worker", "等待线程";
    LegendAbandoned => "abandoned (nobody waits)", "已被放弃（无人等待）";
    LegendBackoff => "backoff", "退避";
    LegendTimeout => "timeout", "超时";
    OutcomeSucceeded => "succeeded", "成功";
    OutcomeDegraded => "degraded", "降级";
    OutcomeFailed => "failed", "失败";
    OutcomeRejected => "rejected", "拒绝";
    OutcomeUnfinished => "unfinished", "未完成";
    // formulas
    FormulaTitle => "Closed form beside the simulation", "闭式公式与模拟对照";
    FormulaBound => "Attempts/s at {leaf}, the chain's last service, if every attempt fails (a bound on the average rate)", "链路末端{leaf}在每次尝试都失败时的尝试次数/秒（平均速率的上界）";
    FormulaSimPeak => "simulated peak", "模拟峰值";
    FormulaLittle => "Workers {leaf} needs at its busiest (offered load λ × S over one bucket, S its mean work then, slowdowns included)", "{leaf}最忙时需要的工作线程数（一个时间桶内的负载 λ × S，S 为当时的平均处理时间，含变慢故障）";
    FormulaLittleAt => "{rate} /s × {s} ms = {l} (the bucket {t}–{t2} s)", "{rate} /s × {s} ms = {l}（{t}–{t2} s 的时间桶）";
    FormulaSimInFlight => "simulated peak in flight", "模拟在途峰值";
    FormulaNote => "The bound assumes every request exhausts every layer at the peak rate (the load's peak and any traffic surge, overlapping surges multiplied). λ × S is Little's law for the workers alone (L = λW with W the work time): a long-run average, which exists only when the load stays below the workers' capacity; λ × S here is the busiest bucket's (its rate, times the mean work in force then), and random arrivals can put more than the average into one bucket. Where the simulation departs from them, look for queues, timeouts and rejections.",
        "上界假设每个请求在峰值速率下（负载峰值与流量激增，重叠的激增相乘）都用尽每一层的尝试。λ × S 是只针对工作线程的 Little 定律（L = λW，W 取处理时间）：它是长期平均，只有负载低于线程池能力时才存在；这里的 λ × S 取最忙的时间桶（该桶的速率乘以当时的平均处理时间），随机到达可能让某一时间桶内的数量高于平均。模拟结果偏离它们时，请关注排队、超时与拒绝。";
    Assumptions => "Model assumptions: zero network time; a timeout does not cancel work unless “cancel on timeout” is on; completions at an instant come before timers and arrivals; randomness is drawn per request.",
        "模型假设：网络时间为零；除非开启“超时即取消”，超时不会取消工作；同一时刻先处理完成、再处理定时器和到达；随机数按请求抽取。";

    // ---- export and compact mode (issue 13, item 4) -------------------------------------
    ExportMenu => "Export", "导出";
    ExportHelp => "Download this run for slides, handouts or papers. Every file names the version, preset and seed it came from; every file also carries the link that reproduces it (the JSON as its \"link\" once a setting differs from its preset's; on the retry-storm page, lab run --link with that link prints the same JSON). Nothing leaves your browser.",
        "下载本次运行，用于幻灯片、讲义或论文。每个文件都注明来源的版本、预设和种子；每个文件还附带可复现它的链接（设置与预设不同时，JSON 在其 \"link\" 字段中；在重试风暴页，用 lab run --link 运行该链接会输出相同的 JSON）。数据不会离开你的浏览器。";
    ExportJson => "Results (JSON)", "结果（JSON）";
    ExportJsonHelp => "The run's results as JSON. On the retry-storm page it is the whole report, byte for byte what lab run --link '<this page's link>' --format json prints (with your changes; \"scenario\" names the preset they start from).",
        "以 JSON 导出本次运行的结果。在重试风暴页，它就是完整报告，与 lab run --link '<本页链接>' --format json 的输出逐字节相同（含你的修改；\"scenario\" 是修改所基于的预设名）。";
    ExportSideBHelp => "Compare mode's side B, the same way: its report as lab run --versus prints it, or its time series; files named …-side-b.",
        "对比模式的 B 侧，导出方式相同：报告与 lab run --versus 的输出一致，或其时间序列；文件名以 …-side-b 结尾。";
    DataTable => "Data table", "数据表";
    DataTableNote => "The run in {k} spans of whole {b} ms buckets, equal to within one bucket: each cell is the series' highest {b} ms bucket in that span; the last row is its peak and when. Export › Data (CSV) has every bucket.", "把运行按整个 {b} ms 区间分成 {k} 个时段（长短最多相差一个区间）：每格为该序列在该时段内最高的 {b} ms 区间值；最后一行为峰值及其时刻。每个区间的数据见“导出 › 数据（CSV）”。";
    DataTableTime => "from t (s)", "起始 t（s）";
    DataTablePeak => "peak", "峰值";
    DataTablePeakAt => "{v} at {t} s", "{v}（{t} s 时）";
    ExportCsv => "Data (CSV)", "数据（CSV）";
    ExportCsvHelp => "The time series (on the labs: the step or call table) as CSV, a row per bucket or step; lines starting with # name the source.",
        "以 CSV 导出时间序列（实验页为逐步或逐次调用的表格），每个时间桶或每一步一行；以 # 开头的行注明来源。";
    ExportFigures => "Figures", "图表";
    ExportFiguresHelp => "Each chart and diagram on the page as a self-contained SVG, or as a PNG at the size shown or at twice that size.",
        "页面上的每个图表和示意图，可导出为自包含的 SVG，或按显示尺寸、两倍尺寸导出为 PNG。";
    ExportNoFigures => "No figure on the page yet.", "页面上还没有图表。";
    ExportSvg => "SVG", "SVG";
    ExportPng => "PNG", "PNG";
    ExportPng2x => "PNG 2×", "PNG 2×";
    ExportFigureLabel => "Export “{name}”", "导出“{name}”";
    ExportFormatLabel => "Download “{name}” as {format}", "将“{name}”下载为 {format}";
    ExportSaved => "Saved {file}.", "已保存 {file}。";
    ExportFailed => "Could not export: {message}", "导出失败：{message}";
    ExportNotReady => "Nothing to export yet: the run has not finished.", "暂无可导出的内容：运行尚未完成。";
    EmbedCopy => "Copy embed snippet", "复制嵌入代码";
    EmbedHelp => "An <iframe> that shows this link in compact mode (the figures without the control panel), for a course page or a slide.",
        "一段 <iframe> 代码，以紧凑模式（只有图表，没有控制面板）显示当前链接，可用于课程网页或幻灯片。";
    EmbedSnippet => "Embed snippet", "嵌入代码";
    EmbedCopied => "Embed snippet copied.", "已复制嵌入代码。";
    EmbedCopyByHand => "The clipboard is not available here: select the snippet below and copy it (Ctrl+C).", "此处无法使用剪贴板：请选中下面的代码并复制（Ctrl+C）。";
    CopyByHand => "The clipboard is not available here. Copy the link (Ctrl+C), then close this box.", "此处无法使用剪贴板。请复制链接（Ctrl+C），然后关闭此窗口。";
    EmbedOpenFull => "Open the full page", "打开完整页面";
    EmbedOpenFullHelp => "The same link with the control panel, in a new tab.", "在新标签页中打开带控制面板的同一链接。";

    // ---- cause breakdown and retry timing (storm page, issue 13 items 2 and 3) ----------
    BdTitle => "Where the requests went: outcome, then cause", "请求去向：先看结果，再看原因";
    BdIntro => "Every original request of the run, by how it ended and the first cause that ended it, as the entry saw it: a deeper layer that gives up answers a 5xx, so its breaker, bulkhead, timeout or budget shows here as an error (5xx). The counts add up to the headline figures; a box too small to see still carries its label.",
        "本次运行的每个原始请求，按结束方式和导致结束的第一个原因分组，原因以入口看到的为准：更深的层放弃时回答 5xx，所以那里的熔断、舱壁、超时或预算在这里显示为错误（5xx）。各数之和等于上方的核心数字；太小看不清的方块仍标有数字。";
    BdFlowLabel => "Request flow: requests, outcome, cause", "请求流向：请求、结果、原因";
    BdColOutcome => "outcome", "结果";
    BdColCause => "cause", "原因";
    BdRequests => "requests", "请求";
    BdCount => "{label} {n}", "{label} {n}";
    BdCountPercent => "{label} {n} ({pct} %)", "{label} {n}（{pct}%）";
    BdCauseTimeout => "timed out", "超时";
    BdCauseError => "error (5xx)", "错误（5xx）";
    BdCauseOverload => "overloaded (429/503)", "下游过载（429/503）";
    BdCauseClientError => "client error (4xx)", "客户端错误（4xx）";
    BdCauseDeadline => "deadline exhausted", "截止时间耗尽";
    BdCauseRetryBudget => "retry budget denied", "重试预算拒绝";
    BdCauseBreaker => "breaker open", "熔断器打开";
    BdCauseBulkhead => "bulkhead full", "舱壁已满";
    BdRateLimit => "rate limit (429)", "限流（429）";
    BdConcurrencyLimit => "concurrency limit (429)", "并发上限（429）";
    BdQueueFull => "queue full (503)", "队列已满（503）";
    BdQueueTimeout => "queue timeout (503)", "排队超时（503）";
    BdCostExceeds => "cost above the bucket (4xx)", "成本超过令牌桶容量（4xx）";
    BdOther => "other", "其他";
    BdOk => "answered", "成功应答";
    BdCancelled => "cancelled", "已取消";
    BdSent => "sent", "已发出";
    BdHopsTitle => "Per hop: how the calls ended, and what each caller refused before sending", "逐跳：调用如何结束，以及调用方在发出前拒绝了什么";
    BdHopsNote => "A hop's results are its answers as the callee gave them. A caller's timeout leaves the call running (it is counted by its answer, and as abandoned work) unless cancel-on-timeout is on. A caller's breaker, bulkhead, deadline and retry budget stop an attempt before it is sent; each refusal is one attempt not made.",
        "每跳的结果是被调方给出的应答。调用方超时后，除非开启“超时即取消”，调用仍会继续（按其应答计数，并计入被放弃的工作）。调用方的熔断器、舱壁、截止时间和重试预算会在发出前拦下尝试；每次拒绝就是少发一次尝试。";
    BdHopCalls => "at {name}: {n} calls", "{name}：收到 {n} 次调用";
    BdCallerLine => "caller {name}: {n} attempts set out", "调用方 {name}：计划发出 {n} 次尝试";
    BdCallerNote => "of those sent, {retries} were retries and {timeouts} timed out at the caller", "已发出的尝试中，{retries} 次是重试，{timeouts} 次在调用方超时";
    BdAbandoned => "{n} were worked on after nobody waited (abandoned work)", "其中 {n} 次在无人等待后仍被处理（被放弃的工作）";
    RtTitle => "Retry timing: the wait before each attempt", "重试时机：每次尝试前的等待";
    RtHonest => "Sampled from the backoff policy's own function with this scenario's settings ({n} seeded sequences per caller), not counted in the run. A server's Retry-After (the model waits the longer of it and the backoff; gRPC's pushback replaces the backoff), the deadline and the retry budget can lengthen or stop a wait; they are not drawn here.",
        "用本场景的设置，从退避策略本身的函数抽样（每个调用方 {n} 条带种子的序列），不是本次运行的计数。服务端的 Retry-After（模型取它与退避中较长者；gRPC 的 pushback 则取代退避）、截止时间和重试预算可能延长或阻止等待；此处未画出。";
    RtCaller => "Caller", "调用方";
    RtPolicy => "{attempts} attempts · backoff {backoff} · jitter {jitter}", "{attempts} 次尝试 · 退避 {backoff} · 抖动 {jitter}";
    RtBackoffNone => "none", "无";
    RtBackoffFixed => "fixed {ms} ms", "固定 {ms} ms";
    RtBackoffExp => "exponential from {base} ms, cap {cap} ms", "指数，从 {base} ms 起，上限 {cap} ms";
    RtNoRetries => "No caller in this scenario retries: there is no wait to show.", "本场景没有调用方重试：没有等待可画。";
    RtAtOnce => "No backoff: every retry is sent at once (a wait of 0 ms).", "无退避：每次重试都立即发出（等待 0 ms）。";
    RtAttempt => "before attempt {n}", "第 {n} 次尝试前";
    RtRange => "{min}–{max} ms, mean {mean} ms", "{min}–{max} ms，平均 {mean} ms";
    RtAxis => "wait (ms)", "等待（ms）";
    RtShare => "% of sequences", "序列占比（%）";
    RtCompareTitle => "The jitter modes on the same backoff", "同一退避策略下的各种抖动模式";
    RtCompareNote => "One outline per attempt number, coloured as in the legend; t = min(cap, base · 2ⁿ⁻¹) for the n-th retry with exponential backoff, t = the fixed wait otherwise (decorrelated jitter needs exponential backoff: left out then).", "每个尝试次数一条轮廓线，颜色见图例；指数退避时第 n 次重试的 t = min(上限, 基数 · 2ⁿ⁻¹)，否则 t 为固定等待（去相关抖动需要指数退避，此时不画）。";
    RtJitterNone => "none: t exactly (clients retry in lock-step)", "无：恰好为 t（客户端同步重试）";
    RtJitterFull => "full: random(0, t)", "全抖动（full）：random(0, t)";
    RtJitterEqual => "equal: t/2 + random(0, t/2)", "等分抖动（equal）：t/2 + random(0, t/2)";
    RtJitterDecorrelated => "decorrelated: min(cap, random(base, 3 · previous))", "去相关抖动（decorrelated）：min(上限, random(基数, 3 · 上次))";

    // ---- guided lessons ----------------------------------------------------------------
    LessonsNav => "Lessons", "课程";
    LessonsTitle => "Guided lessons", "引导课程";
    LessonsIntro => "Each lesson walks one source document step by step: a page set up for the step, one to three knobs, what to look at, a question to ask before the answer, and something to try. Every number in the text is computed by the model for the step. They are listed in teaching order: start with how retries amplify a failure; the interview comes last.",
        "每门课按一篇来源文档逐步讲解：每一步都有设好的页面、一到三个参数、要看什么、揭晓答案前先问的问题，以及可以动手试的内容。文中每个数字都由模型针对该步计算得出。课程按教学顺序排列：先看重试如何放大一次故障，面试放在最后。";
    LessonsSources => "The sources are four Chinese articles on resilience this lab was built from, cited by number throughout the site: 000, an interview about a product page, its recommendation and profile services, attempts ×9 and deadlines; 001, retry storms through client → gateway → order → payment (27×), jitter, a retry budget and a breaker; 002, capacity, admission control with a token bucket, and 64×; 003, a field guide from an SLO to timeouts, bulkheads, breakers, rate limits and degradation, around a big-promo outage.",
        "来源是本实验据以构建的四篇中文韧性文章，全站按编号引用：000，一场面试——商品页、推荐服务与画像服务、9 倍尝试放大与截止时间；001，客户端 → 网关 → 订单服务 → 支付服务的重试风暴（27×）、抖动、重试预算与熔断；002，容量、令牌桶准入控制与 64×；003，一份可用性图谱，从 SLO 讲到超时、舱壁、熔断、限流与降级，围绕一次大促事故。";
    LessonSource => "source {source}", "文档 {source}";
    LessonStepCount => "{n} steps", "{n} 步";
    LessonMinutes => "{m} min", "{m} 分钟";
    LessonStart => "Start", "开始";
    LessonPresent => "Present", "演示模式";
    LessonPresentLeave => "Leave presenter mode", "退出演示模式";
    LessonPresentHelp => "The step's figure large for a projector, only the step's knobs; keys → / PageDown / Space next, ← / PageUp back, R reveal, P play or pause, F full screen, L the other language, Esc leave.",
        "为投影放大本步的图，只显示本步的参数；按键 → / PageDown / 空格 下一步，← / PageUp 上一步，R 揭晓答案，P 播放或暂停，F 全屏，L 切换语言，Esc 退出。";
    LessonInterview => "Interview mode", "面试模式";
    LessonStartHelp => "Alone, at your own pace: the card beside the page, its answers hidden until you reveal them (R), → and ← to the next and previous step, your place kept in the link.", "自学，按自己的节奏：卡片在页面旁边，答案在你揭晓（R）之前隐藏，→ 和 ← 切换到下一步和上一步，进度保存在链接里。";
    LessonModeItem => "{mode}: {help}", "{mode}：{help}";
    LessonInterviewHelp => "For the interviewer: every prompt of the lesson as a checklist, answers hidden until revealed, and a link for the candidate without the answers.",
        "给面试官：课程的所有问题列成清单，答案揭晓前隐藏，并可复制不含答案的候选人链接。";
    LessonAllSteps => "All steps", "全部步骤";
    LessonKeysTitle => "Running a lesson in class", "在课堂上使用课程";
    LessonKeysText => "Open a lesson in presenter mode on the projector (F for full screen). A clicker's keys work: → / PageDown / Space next, ← / PageUp back; R reveals the answer, P plays or pauses the animation, L switches the language, Esc leaves presenter mode. “Speaker notes” opens a second window with the narration and the answer, which moves with the first window as you step through.",
        "在投影上以演示模式打开课程（按 F 全屏）。翻页笔的按键可用：→ / PageDown / 空格 下一步，← / PageUp 上一步；R 揭晓答案，P 播放或暂停动画，L 切换语言，Esc 退出演示模式。“讲稿”会打开第二个窗口，显示讲解和答案，并与主窗口同步。";
    LessonFiguresFailed => "The model could not compute this step's figures: {message}", "模型无法计算本步的数字：{message}";
    LessonStepOf => "Step {n} of {total}", "第 {n} 步，共 {total} 步";
    LessonAsk => "Ask first:", "先提问：";
    LessonSettings => "This step's settings:", "本步设置：";
    LessonAnswer => "Answer:", "答案：";
    LessonReveal => "Reveal the answer", "揭晓答案";
    LessonRevealHelp => "Show the answer (key R); ask the question first.", "显示答案（按键 R）；请先提问。";
    LessonHideAnswer => "Hide the answer", "隐藏答案";
    LessonShowRun => "Show the run", "显示运行结果";
    LessonShowRunHelp => "Answer the question first; then see the run that answers it (key R).", "先回答问题，再看给出答案的运行（按键 R）。";
    LessonRunHidden => "The run is hidden until you have answered: press “Show the run” in the card.", "回答之前运行结果是隐藏的：请按卡片里的“显示运行结果”。";
    PresetLinkName => "in a link: preset={name}", "链接中写作 preset={name}";
    SkipToControls => "Skip to the controls", "跳到控制面板";
    ToSettings => "Settings and sliders ↓", "设置与滑块 ↓";
    ToLabSettings => "Settings ↓", "设置 ↓";
    ToFigures => "Figures ↑", "图表 ↑";
    LessonTry => "Try this:", "试一试：";
    LessonSettingNow => " (now {v})", "（现为 {v}）";
    LessonModified => "You changed this step's settings; the figures quoted above are for the step's own settings.",
        "你修改了本步的设置；上文引用的数字对应本步原本的设置。";
    LessonBackToStep => "Back to the step's settings", "恢复本步设置";
    LessonNavLabel => "Lesson steps", "课程步骤";
    LessonToolsLabel => "Lesson tools", "课程工具";
    LessonPrev => "← Back", "← 上一步";
    LessonNext => "Next →", "下一步 →";
    StepMomentLabel => "this step's moment", "本步关注的时段";
    LessonPrevHelp => "The step before (key ← or Page Up, as a presentation clicker)", "上一步（按键 ← 或 Page Up，与翻页笔相同）";
    LessonNextHelp => "The next step (key → or Page Down, as a presentation clicker)", "下一步（按键 → 或 Page Down，与翻页笔相同）";
    LessonNextLesson => "Next lesson →", "下一课 →";
    LessonNextLessonTitle => "Next lesson: {title}", "下一课：{title}";
    LessonAllLessons => "All lessons →", "全部课程 →";
    LessonNotes => "Speaker notes", "讲稿";
    LessonNotesHelp => "Open the narration and answers in a second window that stays in step with this one.",
        "在第二个窗口打开讲解和答案，并与本窗口保持同步。";
    LessonNotesSync => "This window follows the presenting window, and moves it when you step here.",
        "本窗口跟随演示窗口；在这里翻页也会带动演示窗口。";
    LessonNextUp => "Next: {title}", "下一步：{title}";
    LessonCandidate => "Copy the candidate link", "复制候选人链接";
    LessonCandidateCopied => "Candidate link copied", "候选人链接已复制";
    LessonCandidateHelp => "The same step and settings, without the answers or the checklist.", "相同的步骤和设置，但不含答案和清单。";
    LessonChecklist => "Interview checklist", "面试清单";
    LessonShowStep => "Show", "显示";
    LessonLeave => "Leave the lesson", "离开课程";
    LessonPlay => "Play / pause (P)", "播放 / 暂停（P）";
    LessonPlayHelp => "Plays or pauses the step's run, as the P key does: on the stage the page's own playback bar is hidden.",
        "播放或暂停本步的运行，与 P 键相同：讲台模式下页面自己的播放栏是隐藏的。";
    LessonFullScreen => "Full screen (F)", "全屏（F）";
    // The presenter card's language button: the other language, in its own words.
    LessonOtherLanguage => "中文 (L)", "English (L)";
    LessonFullScreenHelp => "Fills the screen with the stage, or leaves full screen, as the F key does.",
        "让讲台占满屏幕，或退出全屏，与 F 键相同。";
    LessonLeaveHelp => "Keep this page as it is, with every control.", "保留当前页面及全部控件。";

    // ---- stability map -----------------------------------------------------------------
    StabNav => "Stability map", "稳定性地图";
    StabTitle => "Stability map: where retries turn a blip into an outage", "稳定性地图：重试在哪里把小故障变成停机";
    StabIntro => "Each cell is one run of the scenario: steady load, a trigger (its first fault window), the load held. Below some load any trigger is absorbed; above it, a long enough trigger tips the system into a state that outlasts the trigger, held there by its own retries and by work for callers that have given up (a metastable failure). Click a cell to open its run on the retry-storm page.",
        "每个格子是一次运行：稳定负载，一个触发因素（场景的第一个故障窗口），然后负载保持不变。低于某个负载时任何触发因素都会被吸收；高于它时，足够长的触发会让系统进入一种在触发结束后仍然持续的状态，把它困在其中的是它自己的重试，以及为已经放弃等待的调用方继续做的工作（亚稳态故障）。点击格子可在重试风暴页打开那次运行。";
    StabRule => "How a cell is judged: goodput is the share of arriving requests answered in full. Overloaded: offered at or above the bottleneck's capacity (no steady state there, trigger or none), or below {good} % already before the trigger. Recovered: at {good} % or more again over the last {share} % of the arrivals (how fast: from the trigger's end until no window falls below {good} %; windows of {step} s, longer where that holds fewer than {min} arrivals, so that answers crossing a window's edge do not count as failures). Still draining: not at {good} % yet, but the calls waiting for a worker fall by {fall} % or more across that window: the backlog the trigger left is being worked off and nothing holds the run there, so a longer run would recover. Stuck: fine before, not after, although the trigger is over, and the backlog not falling. A cell needs {warm} s of warm-up and {step} s before its trigger, and after it {judged} s to settle and a recovery window of {judged} s or more, or it is not run. A verdict is on a run of finite length: near capacity a longer run can turn stuck into still draining, and still draining into recovered. Each cell is one run with the page's seed: near the boundary a burst of arrivals can tip a cell the other way from its neighbours.",
        "格子的判定：有效吞吐是到达请求中得到完整回答的比例。过载：负载达到或超过瓶颈的容量（此时无论有无触发因素都没有稳态），或触发前就低于 {good}%。已恢复：在最后 {share}% 的到达请求中重新达到 {good}% 或以上（恢复快慢：从触发结束到之后再没有任何窗口低于 {good}%；窗口长 {step} s，到达数不足 {min} 个时加长，以免跨窗口边界的应答被算作失败）。仍在排空：尚未回到 {good}%，但等待线程的调用在这段时间内减少了 {fall}% 或更多：触发留下的积压正在被消化，没有什么把系统困住，运行再长一些就会恢复。卡住：触发前正常，触发结束后仍不正常，而且积压没有减少。每个格子在触发前需要 {warm} s 预热，再加 {step} s；触发后需要 {judged} s 的稳定时间，再加至少 {judged} s 的恢复窗口，否则不运行。判定针对的是有限长度的一次运行：接近容量时，更长的运行可能把“卡住”变成“仍在排空”，把“仍在排空”变成“已恢复”。每个格子是用本页种子的一次运行：在边界附近，一阵突发的到达就可能让某一格与相邻格的结果相反。";
    StabAxisUtil => "Offered load ÷ capacity", "负载 ÷ 容量";
    StabAxisTrigger => "Trigger length (ms)", "触发时长（ms）";
    StabPending => "not run yet", "尚未运行";
    StabError => "could not run", "无法运行";
    StabSweeping => "Sweeping {total} cells…", "正在扫描 {total} 个格子…";
    StabTooMuchWork => "up to {estimated} calls, more than one cell may run ({cap})", "最多 {estimated} 次调用，超过单格可运行的上限（{cap}）";
    StabInternal => "internal error: {message}", "内部错误：{message}";
    StabRecoveredIn => "recovered in {t}", "{t} 后恢复";
    StabAbsorbed => "recovered at once (in its first window)", "立即恢复（第一个窗口内）";
    StabLeft => "{status} · about {t} left", "{status} · 约剩 {t}";
    StabLeftSeconds => "{n} s", "{n} 秒";
    StabLeftMinutes => "{n} min", "{n} 分钟";
    StabProgressOne => "{done} of {total} cells · 1 Web Worker", "已完成 {done}/{total} 格 · 1 个 Web Worker";
    StabDoneLocal => "{total} cells in {s} s on the page (no worker could start)", "{total} 格，用时 {s} s，在页面内运行（无法启动 Worker）";
    StabDoneOne => "{total} cells in {s} s on 1 Web Worker", "{total} 格，用时 {s} s，1 个 Web Worker";
    StabOpenCell => "Open a cell's run", "打开某一格的运行";
    StabOpenCellHelp => "Choose a column and a row to open that run on the retry-storm page (the cells are links too; on a touch screen a tap on a cell picks it here).", "选择一列和一行，在重试风暴页打开那次运行（格子本身也是链接；触摸屏上轻点格子即在此选中它）。";
    StabOpen => "Open", "打开";
    StabHystProtected => "green lines: with {p} (dotted rising, dash-dot falling)", "绿线：加上{p}（点线为上升，点划线为回落）";
    LessonToFigure => "Go to the figure ↓", "查看图 ↓";
    LessonToCard => "↑ Card", "↑ 卡片";
    LessonToCardLabel => "Back to the lesson card", "回到课程卡片";
    StabStuck => "stuck", "卡住";
    StabOverloaded => "overloaded (at or above capacity, or already failing before the trigger)", "过载（负载达到或超过容量，或触发前已在失败）";
    StabMapLabel => "Stability map: each cell's outcome, load across, trigger up", "稳定性地图：每格的结果，横轴负载，纵轴触发因素";
    StabHystTitle => "Hysteresis: goodput against offered load, rising then falling", "迟滞：负载先升后降时的有效吞吐";
    StabHystGoodput => "Answered in full ÷ capacity", "完整回答 ÷ 容量";
    StabHystNote => "One run with the load stepped from {bottom} % of the capacity up to {top} % and back down, {step} s a step (no fault): on the way down goodput stays low well below the load where it broke. A protection's green lines show how much of the gap it closes. The grey line is the same ramp with one attempt a call: the gap between it and the falling line is what the retries add. Each point counts the requests answered in full over the second half of its step, so that the level has settled: arrivals are random, and a point may land a few % above the ideal line.",
        "一次运行，负载从容量的 {bottom}% 逐级升到 {top}% 再降回，每级 {step} s（无故障）：下降时，即使负载已远低于崩溃时的水平，有效吞吐仍然很低。叠加保护时，绿线显示该保护能缩小多少差距。灰色实线是同样的负载升降、但每次调用只尝试一次（不重试）时的下降段：它与下降线之间的差距，就是重试造成的。每个点统计的是该级后半段内得到完整回答的请求，此时负载已经稳定；到达是随机的，所以个别点可能比理想线高出几个百分点。";
    // Why the falling branch stays low: the answer to the lesson's question about it, kept
    // apart so that the lesson can veil it.
    StabHystWhy => "Why it stays low on the way down: two things keep the queue full — work the server still does for callers that have given up (nothing cancels it), and the retries of every timed-out request. With a retry budget the way down gets out once the backlog can drain.",
        "为什么回落时仍然很低：有两个因素让队列一直是满的——一是服务端仍在为已经放弃等待的调用方做的工作（没有任何机制取消它），二是每个超时请求的重试。加上重试预算后，回落时一旦积压能够排空，系统就会脱困。";
    StabHystUp => "load rising", "负载上升";
    StabHystDown => "load falling", "负载下降";
    StabHystIdeal => "serving everything up to capacity", "理想：容量以内全部得到服务";
    StabX => "Across (x axis)", "横轴（x）";
    StabY => "Up (y axis)", "纵轴（y）";
    StabAxisKnob => "knob", "参数";
    StabFrom => "from", "从";
    StabTo => "to", "到";
    StabSteps => "steps", "格数";
    StabAxisHelp => "The knob swept along this axis, from a value to another in evenly spaced steps (1–40). Offered load ÷ capacity sets the arrival rate against the bottleneck's capacity; trigger length sets the first fault window's end; any other is a retry-storm page knob.",
        "沿该轴扫描的参数，在两个值之间均匀取 1–40 格。负载 ÷ 容量按瓶颈容量设置到达率；触发时长设置第一个故障窗口的结束时间；其他都是重试风暴页的参数。";
    StabProtect => "Overlay a protection", "叠加一种保护";
    StabProtectHelp => "Runs every cell again with this protection on the entry's calls and draws its boundary dashed over the map, and its hysteresis run as green lines: compare the two regions and the two ways down (a protection may shrink the stuck region, or not).",
        "在入口调用上加上这种保护后把每个格子再跑一遍，把它的边界以虚线画在地图上，并把它的迟滞运行画成绿线：比较两块区域和两条回落曲线（保护可能缩小卡住的区域，也可能不能）。";
    StabProtNone => "none", "无";
    StabProtBudget => "retry budget ({ratio} %, source 001)", "重试预算（{ratio}%，文档 001）";
    StabProtCancel => "cancel on timeout", "超时即取消";
    StabProtBreaker => "circuit breaker (open {open} s)", "熔断器（打开 {open} s）";
    StabProgress => "{done} of {total} cells · {workers} Web Workers", "已完成 {done}/{total} 格 · {workers} 个 Web Worker";
    StabProgressLocal => "{done} of {total} cells · on the page (no worker could start)", "已完成 {done}/{total} 格 · 在页面内运行（无法启动 Worker）";
    StabDone => "{total} cells in {s} s on {workers} Web Workers", "{total} 格，用时 {s} s，{workers} 个 Web Worker";
    StabCancel => "Cancel", "取消";
    StabRerun => "Run again", "重新运行";
    StabCancelled => "Cancelled after {done} of {total} cells.", "已在完成 {done}/{total} 格后取消。";
    StabStuckCount => "Stuck cells: {plain} without a protection, {prot} with {p}.", "卡住的格子：无保护时 {plain} 个，加上{p}后 {prot} 个。";
    StabLegendRec0 => "recovered within {s} s", "{s} s 内恢复";
    StabLegendRec1 => "within {s} s", "{s} s 内";
    StabLegendRec2 => "within {s} s", "{s} s 内";
    StabLegendRec3 => "later", "更久";
    StabLegendBoundary => "boundary", "边界";
    StabLegendBoundaryProt => "boundary with the protection", "加保护后的边界";
    StabLegendSaved => "stuck without the protection, gets out with it", "不加保护时卡住、加保护后脱困";
    StabCapacity => "Bottleneck capacity: {cap} requests/s.", "瓶颈容量：每秒 {cap} 个请求。";
    // ---- walkthrough fixes: pages and lessons --------------------------------------------
    InBrackets => "({text})", "（{text}）";
    PoolFullNote => "From {from} s to {to} s all {limit} workers were busy at some moment of every {ms} ms (the chart draws each time bucket's peak; a busy pool can still answer in time): the queue's scale draws the pool at the foot of the chart.",
        "{from} s 到 {to} s 之间，每个 {ms} ms 的时段内都有某一刻全部 {limit} 个工作线程在忙（图中画的是每个时段的峰值；线程池忙不等于回答不及时）：按队列的刻度，线程池贴在图表底部。";
    LatencyZeroNote => "Requests answered at once (0 ms: refused at the door) are drawn at the axis's left edge, which a log scale cannot take to 0; their p50 and p99 lines sit there too.",
        "立即得到答复的请求（0 ms：在入口被拒绝）画在坐标轴最左端，因为对数刻度无法到达 0；它们的 p50 与 p99 线也在那里。";
    QNoSteadyState => "At ρ ≥ 100 % there is no steady state: with an unbounded queue the wait grows without end, so the line stops and this setting has no closed form. Its dot is the run's mean: bounded by the page's queue limit if it has one, else growing with the run's length. Past 150 % it sits on the chart's edge.",
        "当 ρ ≥ 100% 时没有稳态：队列不设上限时等待会无限增长，因此曲线到此为止，当前设置没有闭式解。它的点是本次运行的平均值：设了队列上限时受其约束，否则随运行时长增长。超过 150% 时点画在图表边缘。";
    QQueueLimitNote => "The line, {line}, assumes an unbounded queue; the runs let at most {q} calls wait and turn the rest away ({blocked} % at this setting), so where the queue fills the dots sit below the line.",
        "曲线（{line}）假设队列不设上限；运行中最多允许 {q} 个调用等待，其余被拒绝（当前设置下为 {blocked}%），因此在队列会排满的地方，点落在曲线下方。";
    CalcLogScaleNote => "Bar heights are on a log scale, so that every level stays visible: each ×n step up is the same height for the same n. The numbers over the bars are exact.",
        "柱高采用对数刻度，使每一层都看得见：相同的 ×n 升高相同的高度。柱上的数字是精确值。";
    CalcLogScaleNoteRows => "Bar lengths are on a log scale, so that every level stays visible: each ×n step down is the same length for the same n. The numbers beside the bars are exact.",
        "柱长采用对数刻度，使每一层都看得见：相同的 ×n 增加相同的长度。柱旁的数字是精确值。";
    PeakInBucket => "the most at once in each {ms} ms", "每 {ms} ms 内同时最多的数量";
    InstancesPeakInBucket => "instances, the most in each {ms} ms: open and half-open may share one", "个实例，每 {ms} ms 内的最多数量：打开与半开可同处一格";
    DiagramEnded => "This run ended at {t} s: the chain shows its last {ms} ms, not a server still busy.", "本次运行在 {t} s 结束：调用链显示的是它最后 {ms} ms 的情况，并不是服务器仍在忙。";
    DiagramPeakNote => "Busy and queued: the most at once within the playhead's {ms} ms, as the chart below draws them.",
        "忙碌与排队：播放头所在的 {ms} ms 内同时最多的数量，与下方图表画的一致。";
    // ---- walkthrough fixes: timeline, admission, labels ------------------------------------
    // The one-request timeline and the attempt tree: a bar's and a mark's tooltip, the
    // work that ended after its caller stopped waiting, and the legend's caller marks.
    SpanTip => "#{n} {from} → {to} ms: {result}", "#{n} {from} → {to} ms：{result}";
    SpanAbandonedOk => "answered after the caller had stopped waiting (abandoned)", "调用方已不再等待后才回答（已被放弃）";
    SpanAbandoned => "{result}, after the caller had stopped waiting (abandoned)", "{result}，此时调用方已不再等待（已被放弃）";
    MarkTip => "{caller} → {callee}: {what}", "{caller} → {callee}：{what}";
    LegendCallerMark => "the caller stopped trying, was refused or fell back (hover for why)", "调用方停止尝试、被拒绝或改用兜底（悬停查看原因）";
    // The admission lab: the arrivals table's headings and cells, and the tokens chart.
    LabelWithUnit => "{label} ({unit})", "{label}（{unit}）";
    CellTimeLabel => "time of arrival #{n} (ms)", "到达 #{n} 的时间（ms）";
    CellCostLabel => "cost of arrival #{n} (tokens)", "到达 #{n} 的成本（令牌）";
    CellHoldLabel => "hold time of arrival #{n} (ms)", "到达 #{n} 的占用时长（ms）";
    ArrivalsTableHelp => "Each row is one request: time = when it arrives, in ms from the start; cost = the tokens it takes from the bucket; hold = how long it keeps a concurrency slot once admitted, in ms.",
        "每行是一个请求：时间 = 到达时刻（从开始算起，ms）；成本 = 从令牌桶取走的令牌数；占用 = 被接纳后占用并发名额的时长（ms）。";
    TokensCapacityLine => "B = {b}", "B = {b}";
    TokensStacked => "A number beside a mark counts the arrivals decided at that same moment and level.", "标记旁的数字表示在同一时刻、同一令牌量下判定的到达数。";
    // The breaker lab's count cards: what the two numbers are, and that probes are apart.
    BlFiguresNote => "Before the slash: up to the playhead; after it: the whole run. Let through leaves out the half-open probes: {passed} + {rejected} + {probes} = {n} calls.",
        "斜线前是到播放头为止的数目，斜线后是整次运行的数目。放行不含半开探测：{passed} + {rejected} + {probes} = {n} 次调用。";
    // Punctuation that differs by language: a label before its value, two sentences in a row,
    // a help text with its range, a stability cell's tooltip.
    LabelColon => "{label}: ", "{label}：";
    Sentences => "{a} {b}", "{a}{b}";
    HelpWithRange => "{help} ({range})", "{help}（{range}）";
    StabCellTip => "{x} = {xv}, {y} = {yv}: {verdict}", "{x} = {xv}，{y} = {yv}：{verdict}";
    // ---- interview walkthrough: compare mode names side B ----
    VersusBulkheadIsolated => "Bulkheads, isolated: recommendations 10 threads, order core 4", "舱壁（隔离）：推荐 10 个线程，订单核心 4 个";
    VersusMetastableBudget => "Metastable retry storm with a 10 % retry budget", "亚稳态重试风暴（10% 重试预算）";
    SideBNamed => "B: {title}", "B：{title}";
    SideBNamedChanged => "B: {title}, as the preset ships it (your changes are on side A)", "B：{title}（预设原样；你的修改在 A 侧）";
    SideBShipped => "B: {title}, as shipped (your changes are on side A)", "B：{title}（预设原样；你的修改在 A 侧）";
    SideBShippedSame => "B: {title}, as shipped (the same as side A until you change a setting)", "B：{title}（预设原样；在你修改设置之前与 A 侧相同）";
    SideBPinned => "B: the settings you pinned ({title}, as you had changed it; change side A to compare against them)", "B：你固定的设置（基于{title}及你当时的修改；改动 A 侧即可与之对比）";
    SideBPinnedSame => "B: the settings you pinned ({title} as the preset ships it; change side A to compare against them)", "B：你固定的设置（{title}预设原样；改动 A 侧即可与之对比）";
    SideBPinnedShort => "B: your pinned settings", "B：你固定的设置";
    PinB => "Pin as B", "固定为 B";
    PinBHelp => "Keeps side A's settings as side B and shows both: change A and compare against what you had. The link carries both (pin=).", "把 A 侧当前的设置固定为 B 侧并同时显示：改动 A 即可与原来的设置对比。链接会同时带上两侧（pin=）。";
    UnpinB => "Unpin B", "取消固定 B";
    UnpinBHelp => "Lets the pinned settings go, and side B with them.", "放开固定的设置，B 侧随之关闭。";
    HAmplificationNote => "leaf attempts ÷ original requests, refused ones included", "下游尝试 ÷ 原始请求（含被拒绝的请求）";
    HEveryHopNote => "at every hop added up", "各跳相加";
    HLatencyNote => "p50, p99, max: admitted requests, fast failures included (one a breaker or bulkhead refused at once took 0 ms)", "p50、p99、最大值：按已接纳的请求计，含快速失败（被熔断器或舱壁立即拒绝的请求耗时 0 ms）";
    FaultKindAt => "{kind} at {target}", "{target}{kind}";
    FaultShortNamed => "fault {n}, {what}", "故障 {n}：{what}";
    RateInBucket => "/s, counted in each {ms} ms", "次/秒，每 {ms} ms 统计一次";
    StabTwoSweeps => "(two sweeps of {n} cells: without and with the protection)", "（两遍扫描，每遍 {n} 格：不加保护与加上保护）";
    LessonTimeBox => "{m} min (minutes {from}–{to})", "{m} 分钟（开场后 {from}–{to} 分钟）";
    // A step that continues the time box a step before it opened.
    LessonTimeBoxGoesOn => "still minutes {from}–{to}", "仍在开场后 {from}–{to} 分钟内";
    StabOpenProtected => "Open with protection: {p}", "打开（加上保护：{p}）";
    StabCellProtected => "with {p}: {verdict}", "加上{p}：{verdict}";
    StabCellVerdict => "This cell:", "这一格：";
    VeiledStage => "Hidden until the answer is revealed", "揭晓答案前隐藏";
    QExactBounded => "M/M/c/K: at most {q} waiting, the rest turned away, so a steady state exists at any load and every closed form above is exact for it (a finite birth–death chain, P_K the share turned away; P(wait), Wq and W are of the calls let in). The simulated figures differ by sampling noise and the run's empty start. No p99 is drawn.",
        "M/M/c/K：最多 {q} 个调用等待，其余被拒绝，因此任何负载下都存在稳态，上面每个闭式解对它都是精确的（有限的生灭链，P_K 为被拒绝的比例；等待概率、Wq 与 W 针对被接纳的调用）。模拟结果与之的差异来自抽样噪声，以及运行从空系统起步。不画 p99。";
    QQueueLimitLine => "The line is M/M/c/K: at most {q} waiting, the rest turned away ({blocked} % at this setting), so it goes on past 100 %, where the wait levels off below the time a full queue takes to drain.",
        "曲线是 M/M/c/K：最多 {q} 个调用等待，其余被拒绝（当前设置下为 {blocked}%），因此曲线越过 100% 后仍然延续，等待时间趋于平稳，低于排空满队列所需的时间。";
    CapNoteBounded => "This table is source 002's arithmetic for an unbounded queue. With this queue limit the pool has a steady state at any load: see the M/M/c/K figures above.",
        "此表是文档 002 针对无界队列的算术。设了这个队列上限后，池在任何负载下都有稳态：见上方的 M/M/c/K 数字。";
    CapNoteBoundedNoForm => "This table is source 002's arithmetic for an unbounded queue. With this queue limit the pool has a steady state at any load, but no closed form here covers this setting ({why}): the run is the figure to read.",
        "此表是文档 002 针对无界队列的算术。设了这个队列上限后，池在任何负载下都有稳态，但这里没有闭式解覆盖当前设置（{why}）：请以运行结果为准。";
    // Why a queue limit gets no M/M/c/K forms.
    QWhyNotMmck => "M/M/c/K's need Poisson arrivals and exponential service", "M/M/c/K 需要泊松到达和指数服务";
    QWhyMmckTooLong => "the queue is too long for M/M/c/K's sum: more than {n} states", "队列太长，超出 M/M/c/K 求和的范围：状态数超过 {n}";
    QPWaitBounded => "P(wait), of the calls let in", "等待概率（被接纳的调用中）";
    QBusyShare => "Busy share (utilisation carried)", "忙碌比例（实际承载的利用率）";
    QLegendBounded => "closed form (M/M/c/K)", "闭式解（M/M/c/K）";
    // The same with a queue limit: the table's arithmetic is for an unbounded queue, which
    // would have no steady state; the limited pool has one (the next note).
    CapNoteUnstableLimited => "λ reaches c × μ: every worker is busy. Without a queue limit the queue would grow as long as arrivals last, with no long-run mean, so L = λW gives no figure here (source 002: a steady state first). Headroom and margin are different things: here the margin is not positive.",
        "λ 已达到 c × μ：所有线程都在忙。若没有队列上限，只要还有到达，队列就会不断增长，不存在长期平均，因此这里 L = λW 给不出数字（文档 002：先要有稳态）。能力余量与距接纳上限的余量是两回事：这里距上限的余量不为正。";
    CapNoteUnstable => "λ reaches c × μ: every worker is busy and the queue grows as long as arrivals last, so no long-run mean exists and L = λW gives no figure (source 002: a steady state first). Headroom and margin are different things: here the margin is not positive.",
        "λ 已达到 c × μ：所有线程都在忙，只要还有到达，队列就不断增长，因此不存在长期平均，L = λW 给不出数字（文档 002：先要有稳态）。能力余量与距接纳上限的余量是两回事：这里距上限的余量不为正。";
    QOffTop => "↑ ρ = {p} %: W = {w} ms", "↑ ρ = {p}%：W = {w} ms";
    QNotRun => "{n} of the curve's {total} simulated dots are not drawn: at their ρ the arrival rate λ = ρ × c × μ lies outside the {min} to {max} req/s the engine runs.", "曲线的 {total} 个模拟点中有 {n} 个未画出：在这些 ρ 下，到达率 λ = ρ × c × μ 超出了引擎可运行的 {min} 到 {max} 请求/秒。";
    StabDraining => "still draining (not serving yet, its backlog falling: nothing keeps it there)", "仍在排空（尚未恢复服务，但积压在减少：没有什么把它困住）";
    RuleJudgedWindows => "a trigger with time around it to judge the run: {detail} (warm-up and a window to compare with before the trigger; after it, time to settle, then a recovery window)", "触发前后须留有判定时间：{detail}（触发前：预热和一段对照窗口；触发后：先留出稳定时间，再是恢复窗口）";
    InFlightColCase => "case", "情形";
    InFlightColL => "L (connections)", "L（连接数）";
    InFlightColPool => "pool", "连接池";
    InFlightColShare => "share of the pool", "占连接池比例";
    InFlightColStatus => "verdict", "结论";
    OutAboveCeiling => "fits, at or above the {p} % ceiling", "可容纳，但达到或超过 {p}% 上限";
    OutInFlightNote => "L = λW holds for long-run averages of a stable system, λ below what the pool can serve. Here W is how long a call holds a connection, so L counts the connections in use; the calculator takes that hold time as given, though near the pool's size calls also wait for a connection and take longer. The amplified rows assume every attempt fails. At or over the pool there is no steady state, so L says nothing (see below); at or above source 002's {p} % ceiling, waits for a connection grow steeply.", "L = λW 适用于稳定系统的长期平均，即 λ 低于连接池能服务的速率。这里的 W 是一次调用占用一条连接的时间，所以 L 是正在使用的连接数；计算器把占用时间当作给定值，而接近连接池上限时，调用还要等待连接，耗时会变长。放大后的行假设每次尝试都失败。达到或超过连接池时不存在稳态，L 没有意义（见下文）；达到或超过文档 002 的 {p}% 上限后，等待连接的时间会急剧增长。";
    CalcCapacityLead => "Capacity with a safety ceiling (source 002: workers, service time, utilisation, headroom):", "带接纳上限的容量（文档 002：线程数、服务时间、利用率、余量）：";
    CalcCapacityLink => "the queue lab's capacity table", "见排队实验的容量表";
    CapNoteShortW => "The assumed time in system W ({w} ms) is shorter than the service time ({s} ms): a request spends at least its service time in the system, so λW would count fewer in it than are busy. Set W to the service time or more (the queue lab above gives its W).", "假定的系统内时间 W（{w} ms）短于服务时间（{s} ms）：一个请求在系统内至少要待满它的服务时间，所以 λW 算出的系统内请求数会少于忙碌的线程数。请把 W 设为不小于服务时间（上方排队实验给出了它的 W）。";
    CapNoteOverCeiling => "λ is above the {k} % ceiling by {x} req/s: the ceiling's admission would turn that much away, or the pool needs {w} workers to stay under it.", "λ 比 {k}% 上限高出 {x} 请求/秒：按上限准入会拒掉这么多，或者需要 {w} 个线程才能保持在上限以内。";
    // ---- the presets' service names: English is the name as scenarios write it -------
    SvcPage => "page", "商品页";
    SvcRecommendation => "recommendation", "推荐服务";
    SvcRecommendations => "recommendations", "推荐服务";
    SvcProfile => "profile", "画像服务";
    SvcClient => "client", "客户端";
    SvcGateway => "gateway", "网关";
    SvcOrder => "order", "订单服务";
    SvcPayment => "payment", "支付服务";
    SvcApp => "app", "App";
    SvcProduct => "product", "商品服务";
    SvcOrderCore => "order-core", "订单核心";
    SvcInventory => "inventory", "库存服务";
    SvcShop => "shop", "商城";
    SvcServer => "server", "服务器";
    SvcNumbered => "service-{n}", "服务 {n}";
    SvcSide => "side-{n}", "旁路 {n}";
    StabHystNoRetry => "load falling, one attempt a call (no retries)", "负载下降（每次调用只尝试一次，不重试）";
    StabHystServed => "On the way down, goodput is back to the offered load (at least {share} % of it): {plain} as the preset stands; {noretry} with one attempt a call.", "负载回落途中，有效吞吐何时重新跟上负载（达到负载的 {share}% 以上）：按预设原样，{plain}；每次调用只尝试一次时，{noretry}。";
    StabHystServedProt => "With {p}: {prot}.", "加上{p}：{prot}。";
    StabHystServedAt => "back at {x} % load", "降到 {x}% 负载时恢复";
    StabHystServedNever => "not even at {x} % load", "降到 {x}% 负载仍未恢复";
    // The space after a label's colon or before a bracketed note: English sets one, Chinese
    // full-width punctuation carries its own.
    LabelSep => " ", "";
    // A percentage: Chinese writes the sign against the number.
    BlBandChanges => "State changes up to the playhead: {now} of the run's {total}.", "到播放头为止的状态变化：{now} 次（全程 {total} 次）。";
    StabStuckPending => "Stuck cells: counted once both sweeps are done.", "卡住的格子：两遍扫描都完成后统计。";
    FormulaBoundPerRequest => "Worst-case attempts per request at {leaf}, the chain's last service", "链路末端{leaf}的每请求最坏尝试次数";
    FormulaSimPerRequest => "simulated, per request (refused ones included)", "模拟，每请求（含被拒绝的请求）";
    FormulaLittleBatch => "All requests arrive at once: there is no steady arrival rate, so Little's law (L = λW) has nothing to take.", "所有请求同时到达：没有稳定的到达率，Little 定律（L = λW）无从计算。";
    // The chain diagram's arrows: calls per call so far, not the retry policy's limit.
    EdgeRatio => "×{n}", "×{n}";
    EdgeRatioTip => "{callee}: {calls} calls so far, {n} per call at {caller} ({callers} calls). {caller} may try each call up to {max} times: only a call that fails every try uses them all, and a deadline, retry budget or breaker can stop it sooner.",
        "{callee}：到目前为止 {calls} 次调用，{caller}的每次调用平均带来 {n} 次（{caller}共 {callers} 次调用）。{caller}每次调用最多尝试 {max} 次：只有每次尝试都失败的调用才会用满；截止时间、重试预算或熔断器可能让它更早停下。";
    DiagramRatioNote => "The × on an arrow: calls at the callee per call at the caller so far; the most a layer may try is its tries badge, reached only by calls that fail every try.",
        "箭头上的 ×：到目前为止，调用方每次调用引来的被调用方调用数；一层最多尝试几次见它的“尝试”徽章，只有每次尝试都失败的调用才会用满。";
    // A lesson's veil over a time chart: the run after the playhead, until the answer.
    VeiledFuture => "Later: hidden until the answer", "之后的部分在揭晓答案前隐藏";
    // A lesson's veil over a card's number (the style sheet's `--veil-tag`).
    VeilTag => "Hidden until the answer", "揭晓答案前隐藏";
    VeilKey => "{text} (R)", "{text}（按 R）";
    // The diagram's breaker lines, from the tally a move was decided on.
    BreakerClosedOn => "closed on {calls} probes, {rate} % failed < {pct} %", "在 {calls} 次探测、失败 {rate}% < {pct}% 时关闭";
    BreakerProbingDecide => "probing: {n} trial calls decide", "探测：由 {n} 次试探调用决定";
    // The formula panel, where the simulation passes a closed form.
    FormulaPeakAbove => "The simulated peak is above the bound: the bound is for the average rate, and arrivals and retries bunch into some buckets above it.",
        "模拟峰值高于上界：上界针对的是平均速率，而到达与重试会在某些时间桶里扎堆，超过平均。";
    FormulaLittleOverPool => "λ × S is above {leaf}'s {workers} workers: the rate asks for more work than the pool can do, so calls queue and there is no steady state while it lasts (Little's law, which would then count the queue too, with W the whole time in the server, has no long-run average to describe).",
        "λ × S 超过了{leaf}的 {workers} 个工作线程：该速率要求的处理量超过线程池的能力，调用会排队，持续期间不存在稳态（此时 Little 定律要把队列也算进去，W 是在服务器里的全部时间，但没有长期平均可描述）。";
    PercentValue => "{n} %", "{n}%";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_reads_its_own_text_out_of_the_joined_table() {
        assert_eq!((T::AppName.en(), T::AppName.zh()), ("Resilience Lab", "韧性实验室"), "the first key");
        assert_eq!((T::LabelSep.en(), T::LabelSep.zh()), (" ", ""), "an empty text");
        assert_eq!(T::PercentValue.zh(), "{n}%", "the text after an empty one");
        // Read back in key order, the texts are the whole table, each once.
        let en: String = T::ALL.iter().map(|k| k.en()).collect();
        let zh: String = T::ALL.iter().map(|k| k.zh()).collect();
        assert_eq!((en.as_str(), zh.as_str()), (EN_TEXT, ZH_TEXT));
    }
}
