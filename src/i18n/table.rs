//! The text tables. One line a key: English, then Simplified Chinese.
//!
//! Vocabulary follows the source documents (重试、退避、抖动、截止时间、重试预算、准入、
//! 熔断、舱壁、降级); where a term maps to a real library setting the help text says so.

macro_rules! texts {
    ($($key:ident => $en:expr, $zh:expr;)*) => {
        /// A key into the text tables.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum T { $($key),* }

        impl T {
            /// Every key, for the completeness test.
            pub const ALL: &'static [T] = &[$(T::$key),*];

            /// English text.
            pub fn en(self) -> &'static str {
                match self { $(T::$key => $en),* }
            }

            /// Simplified Chinese text.
            pub fn zh(self) -> &'static str {
                match self { $(T::$key => $zh),* }
            }
        }
    };
}

texts! {
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
    PageNotFound => "Unknown page “{page}”; showing the default page instead.",
        "未知页面“{page}”，已显示默认页面。";

    // ---- validation --------------------------------------------------------------------
    AllowedRange => "allowed: {min} to {max}", "允许范围：{min} 到 {max}";
    AllowedInteger => "allowed: a whole number from {min} to {max}", "允许范围：{min} 到 {max} 的整数";
    AllowedOneOf => "allowed: one of {choices}", "允许取值：{choices} 之一";
    AllowedLength => "allowed: {min} to {max} items", "允许 {min} 到 {max} 项";
    FieldErrorMessage => "{field} = {value} is not accepted; {allowed}.",
        "{field} = {value} 不可接受；{allowed}。";
    NotANumber => "not a number", "不是数字";
    KeptLastValid => "The figures below still show the last valid input.",
        "下方数字仍显示上一次有效输入的结果。";
    UrlFieldRejected => "The link set {field} = {value}, which is not accepted ({allowed}); the default is used for that field.",
        "链接中的 {field} = {value} 不可接受（{allowed}）；该字段已使用默认值。";

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
        "调用链中各自在失败时重试的层数（1–8）。页面 → 推荐 → 画像是 2 层。";
    FieldAttempts => "Attempts at layer {n}", "第 {n} 层尝试次数";
    FieldAttemptsHelp => "Attempts this layer makes per call, the first one included (≈ gRPC maxAttempts, Resilience4j maxAttempts). “First + 3 retries” is 4.",
        "该层每次调用的尝试次数，含首次（≈ gRPC maxAttempts、Resilience4j maxAttempts）。“首次 + 重试 3 次”即 4。";
    FieldHoldNormal => "Hold time, healthy", "正常占用时间";
    FieldHoldNormalHelp => "How long one downstream call holds a connection when the downstream is healthy.",
        "下游健康时，一次下游调用占用连接的时间。";
    FieldHoldDegraded => "Hold time, degraded", "故障占用时间";
    FieldHoldDegradedHelp => "How long one call holds a connection while the downstream is slow. Source 000: 800 ms.",
        "下游变慢时一次调用占用连接的时间。文档 000：800 ms。";
    FieldPool => "Downstream pool size", "下游连接池上限";
    FieldPoolHelp => "Connections (or workers) available for downstream calls (≈ maxConnections, Resilience4j maxConcurrentCalls).",
        "可用于下游调用的连接（或 worker）数（≈ maxConnections、Resilience4j maxConcurrentCalls）。";
    FieldResponseKib => "Response size", "响应大小";
    FieldResponseKibHelp => "Size of one response; 1 KiB = 1,024 bytes. Payload is reported in MB/s of 10⁶ bytes.",
        "单个响应的大小；1 KiB = 1,024 字节。载荷按 MB/s（10⁶ 字节）报告。";
    UnitPerDay => "req/day", "次/天";
    UnitRps => "req/s", "次/秒";
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
    OutInFlightRow => "{which}", "{which}";
    InFlightNormalBefore => "healthy, no amplification", "正常，未放大";
    InFlightNormalAfter => "healthy, amplified", "正常，已放大";
    InFlightDegradedBefore => "degraded, no amplification", "故障，未放大";
    InFlightDegradedAfter => "degraded, amplified", "故障，已放大";
    OutAgainstPool => "pool {pool}", "连接池 {pool}";
    OutSaturated => "over the pool", "超过连接池";
    OutFits => "fits", "可容纳";
    OutPayload => "Payload at peak", "峰值载荷";
    SaturationTitle => "The pool saturates", "连接池饱和";
    SaturationExplain => "Demand of {demand} connections exceeds the pool of {pool}. Past this point Little's law no longer describes the system: it cannot hold a steady state, and the extra work does not sit “in flight” forever — it queues, times out or is rejected. Watch queue length and how long requests live instead.",
        "需求 {demand} 条连接超过了连接池上限 {pool}。越过这一点，Little 定律不再描述系统：系统无法保持稳态，多出的工作也不会一直“在途”——它们会排队、超时或被拒绝。此时应观察排队长度和请求存活时间。";
    Formula => "Formula", "公式";
    ChainEntry => "entry", "入口";
    ChainLayer => "layer {n}", "第 {n} 层";
    ChainDownstream => "downstream", "下游";
    ChainPictureLabel => "Attempts per second reaching each level in the worst case",
        "最坏情况下每一级每秒收到的尝试次数";

    // ---- presets -----------------------------------------------------------------------
    PresetLab11Unprotected => "Lab 11, unprotected", "实验 11：无保护";
    PresetLab11UnprotectedStory => "Source 000: 100 requests at once; page → recommendation → a slow profile service that holds each call 100 ms and fails. Both layers try 3 times: 900 profile calls, and every request ends after 1,020 ms.",
        "文档 000：100 个请求同时到达；页面 → 推荐 → 慢画像服务（每次占用 100 ms 后失败）。两层各尝试 3 次：画像收到 900 次调用，每个请求 1,020 ms 后才结束。";
    PresetLab11Protected => "Lab 11, protected", "实验 11：有保护";
    PresetLab11ProtectedStory => "Source 000: the entry admits 20 and fast-rejects 80, gives each request a 250 ms budget and degrades instead of failing; only the recommendation client retries, once. 40 profile calls; the longest request takes 220 ms.",
        "文档 000：入口只准入 20 个、快速拒绝 80 个，每个请求总预算 250 ms，失败时降级；只有推荐客户端重试一次。画像共 40 次调用，最长请求 220 ms。";
    PresetLab11Budget150 => "Lab 11, 150 ms budget", "实验 11：预算 150 ms";
    PresetLab11Budget150Story => "The protected lab with a 150 ms budget. The budget is checked before the backoff sleep: after the first failure only 30 ms would remain, less than a try needs, so only first attempts are sent: 20 calls.",
        "受保护实验把总预算缩短到 150 ms。预算在退避睡眠前检查：首次失败后只剩 30 ms，不够一次尝试，所以只发首次请求：共 20 次调用。";
    PresetChain2x3 => "2 layers × 3 attempts", "两层 × 3 次尝试";
    PresetChain2x3Story => "Sources 000/002: 500 req/s, two layers that each try 3 times, a leaf that always fails: 9 leaf calls per request, 4,500 attempts/s.",
        "文档 000/002：每秒 500 个请求，两层各尝试 3 次，叶子服务总是失败：每个请求 9 次叶子调用，每秒 4,500 次尝试。";
    PresetChain3x3 => "3 layers × 3 attempts", "三层 × 3 次尝试";
    PresetChain3x3Story => "Source 001: client → gateway → order → payment, each retrying 3 times: 27× — 1,000 QPS becomes 27,000 calls/s at payment.",
        "文档 001：客户端 → 网关 → 订单 → 支付，每层重试 3 次：放大 27 倍——1,000 QPS 在支付端变成每秒 27,000 次调用。";
    PresetChain3x4 => "3 layers × (first + 3 retries)", "三层 × （首次 + 重试 3 次）";
    PresetChain3x4Story => "Source 002: “first attempt plus 3 retries” on each of 3 layers is 4³ = 64 calls per request.",
        "文档 002：三层每层“首次加重试三次”，每个请求 4³ = 64 次调用。";
    PresetRecommendation500 => "500 req/s into a pool of 200", "每秒 500 次请求对 200 的连接池";
    PresetRecommendation500Story => "Source 000's peak: 500 req/s, 2 layers × 3 attempts, the profile service slowed to 800 ms behind a pool of 200. Demand exceeds the pool even before retries; calls queue, time out and are retried, and abandoned calls keep the pool busy.",
        "文档 000 的峰值：每秒 500 次请求，两层各 3 次尝试，画像服务变慢到 800 ms，连接池上限 200。即使不重试需求也超过连接池；调用排队、超时并被重试，被放弃的调用仍占着连接池。";
    PresetBigPromo => "Big promo, unprotected", "大促：无保护";
    PresetBigPromoStory => "Source 003's incident: a ×5 surge while recommendations slow to a p99 of ~2 s. Every dependency shares 8 threads with an unbounded queue, nothing times out in time, the app retries at once: order calls queue behind slow recommendations and the order path goes down with them.",
        "文档 003 的事故：流量 ×5 的同时推荐 p99 升到约 2 s。所有依赖共享 8 个线程且队列无上限，超时形同虚设，App 立即重试：订单调用排在慢推荐后面，本不需要推荐的下单链路也一起倒下。";
    PresetBigPromoProtected => "Big promo, protected", "大促：有保护";
    PresetBigPromoProtectedStory => "Source 003's protection chain: entry rate limit (429 + Retry-After) → a recommendation bulkhead of 20 with no queue → 150 ms timeout → breaker → hot-list fallback; the order path keeps its own bulkhead. Orders stay ≥ 99.9 % successful while recommendations degrade visibly.",
        "文档 003 的保护链：入口限流（429 + Retry-After）→ 推荐独立舱并发 20、队列 0 → 150 ms 超时 → 熔断 → 热门榜兜底；订单核心舱独立。订单成功率保持 ≥ 99.9%，推荐降级率明显升高。";
    PresetBreakerDemo => "Circuit breaker", "熔断器";
    PresetBreakerDemoStory => "Inventory fails every call from 3 s to 8 s. The breaker (window 20, ≥ 50 % failures) opens, half-opens after 2 s with 3 probes, opens again while the failure lasts and closes once the probes succeed: CLOSED → OPEN → HALF_OPEN → CLOSED.",
        "库存服务在 3 s 到 8 s 之间全部失败。熔断器（窗口 20、失败率 ≥ 50%）打开，2 s 后半开放行 3 个探测，故障持续时再次打开，探测成功后关闭：CLOSED → OPEN → HALF_OPEN → CLOSED。";
    PresetBulkhead => "Bulkheads: shared vs isolated", "舱壁：共享 vs 隔离";
    PresetBulkheadStory => "Source 003: the product service calls the order core and recommendations. With one shared pool of 8 threads, slow recommendations take every thread and orders queue behind them; with isolated pools (recommendations 10, refused beyond; orders 4) orders are unaffected and recommendations degrade.",
        "文档 003：商品服务调用订单核心与推荐。共享 8 个线程时，慢推荐占满所有线程，订单排在后面；隔离舱（推荐 10、超出即拒绝；订单 4）下订单不受影响，推荐降级。";
    PresetMetastable => "Metastable retry storm", "亚稳态重试风暴";
    PresetMetastableStory => "A server at 90 % utilisation slows ×3 for one second. Callers time out and retry, abandoned calls still take workers, and the retries keep it overloaded long after the trigger is gone. Compare with a retry budget: the storm dies out and the system recovers.",
        "利用率 90% 的服务变慢 ×3 持续 1 秒。调用方超时并重试，被放弃的调用仍占用 worker，重试让过载在触发因素消失后长期持续。对比加上重试预算：风暴平息，系统恢复。";
}
