//! Source 001's retry storm: client (the app) → gateway → order → payment, 3 × 3 × 3 = 27×
//! (1,000 QPS → 27,000), then its three lines of defence in its order — exponential
//! backoff with full jitter, a global retry budget (retries ≤ 10 %), a client circuit
//! breaker (50 %, 30 s open) — and the product view: a clear answer, idempotent writes.

use crate::lesson::{Lesson, OnReveal, Playback, Step, tr};

pub const LESSON: Lesson = Lesson {
    id: "retry-storm",
    title: tr("Source 001: how retries amplify a failure", "文档 001：重试怎样放大故障"),
    summary: tr(
        "Every layer of client → gateway → order → payment makes {#3} attempts (the source's \"retry {#3} times\", the first included): one timeout becomes a storm. Then the source's three defences: backoff with jitter, a retry budget, a client breaker — and what the user should see.",
        "客户端 → 网关 → 订单服务 → 支付服务，每层最多尝试 {#3} 次（即来源说的“重试 {#3} 次”，含第一次）：一次超时演变成重试风暴。然后是来源的三重防线：退避加抖动、重试预算、客户端熔断——以及用户应该看到什么。",
    ),
    source: "001",
    steps: &[
        Step {
            link: "page=calculator&rpd=86400000&peak=1&attempts=3,3,3",
            knobs: &["attempts", "rps"],
            title: tr("One timeout, multiplied", "一次超时，层层放大"),
            narration: tr(
                "Client (the app) → gateway → order → payment: the calculator's layers {#1}, {#2} and {#3} are the three callers (the app, the gateway, order), payment the service at the end. Every layer is set to 'retry {set-attempts.1:n} times on failure'. The source counts that as {set-attempts.1} per layer, the first included; read literally (the first plus {set-attempts.1:n} retries) it is {= set-attempts.1 + 1}, and {= set-attempts.1 + 1} × {= set-attempts.2 + 1} × {= set-attempts.3 + 1} = {= ( set-attempts.1 + 1 ) * ( set-attempts.2 + 1 ) * ( set-attempts.3 + 1 )}×: always ask which is meant. Count it as the source does.",
                "客户端（即 App）→ 网关 → 订单服务 → 支付服务：计算器的第 {#1}、{#2}、{#3} 层就是这三个调用方（App、网关、订单服务），支付服务是链路末端被调用的服务。每层都配置“失败后重试 {set-attempts.1:n} 次”。来源把它算作每层 {set-attempts.1}尝试（含首次）；若按字面理解为首次之外再重试 {set-attempts.1:n} 次，则每层 {= set-attempts.1 + 1} 次、{= set-attempts.1 + 1} × {= set-attempts.2 + 1} × {= set-attempts.3 + 1} = {= ( set-attempts.1 + 1 ) * ( set-attempts.2 + 1 ) * ( set-attempts.3 + 1 )}×——一定要问清是哪一种。下面按来源的算法来数。",
            ),
            question: Some(tr(
                "At a steady {out-peak} requests/s, how many calls per second can payment see?",
                "在每秒 {out-peak} 个请求的平稳流量下，支付服务每秒最多会收到多少次调用？",
            )),
            answer: Some(tr(
                "{out-worst}: {out-peak} × {set-attempts.1:n} × {set-attempts.2:n} × {set-attempts.3:n}: when payment fails or times out on every call, each request becomes up to {out-amplification} calls there, an upper bound that every layer exhausting every attempt reaches. The extra load arrives exactly when payment is weakest.",
                "每秒 {out-worst} 次：{out-peak} × {set-attempts.1:n} × {set-attempts.2:n} × {set-attempts.3:n}：当支付服务对每次调用都失败或超时时，每个请求在支付服务处最多被放大 {out-amplification}——每一层都用尽全部尝试次数时，就会达到这个上限。额外的负载恰好在支付服务最脆弱的时候到来。",
            )),
            try_this: Some(tr(
                "Once the answer is revealed (the worst case and the amplification are hidden until then), let only one layer retry: set the attempts to {#1}, {#1}, {#3}.",
                "揭晓答案后（在此之前，最坏情况和放大倍数是隐藏的），只让一层重试：把尝试次数设为 {#1}、{#1}、{#3}。",
            )),
            spot: "out-worst",
            playback: None,
            minutes: None,
            hop: None,
            // The in-flight table's amplified rows and the red box multiply the worst case out.
            veil: &["inflight-normal-after", "inflight-degraded-after", "saturation-warning"],
        },
        Step {
            link: "page=storm&preset=chain-3x3",
            knobs: &["l1.attempts", "l3.attempts", "leaf.error"],
            title: tr("The storm, hop by hop", "逐跳看风暴"),
            narration: tr(
                "The simulator sends {h-a-original_requests} requests in one second down the same chain, and payment fails every call. Follow the calls hop by hop: {bd-a-hop1} at the gateway, {bd-a-hop2} at order, {bd-a-hop3} at payment.",
                "模拟器在一秒内沿同一条链路发出 {h-a-original_requests} 个请求，支付服务每次都失败。逐跳看调用数：网关 {bd-a-hop1} 次，订单服务 {bd-a-hop2} 次，支付服务 {bd-a-hop3} 次。",
            ),
            question: Some(tr("How many requests do all these retries save?", "这么多重试救回了多少请求？")),
            answer: Some(tr(
                "{h-a-succeeded}: all {h-a-failed} still fail, each after {h-a-latency_max}. Against a lasting fault, retries buy no success, only {h-a-amplification} the load.",
                "{h-a-succeeded} 个：{h-a-failed} 个请求全部失败，每个耗时 {h-a-latency_max}。面对持续性故障，重试换不来成功，只换来 {h-a-amplification} 的负载。",
            )),
            try_this: Some(tr(
                "Set payment's error rate to {#0.1}, a transient fault: now the retries mostly help, for little extra load.",
                "把支付服务的错误率设为 {#0.1}（短暂故障）：这时重试大多有用，额外负载也很小。",
            )),
            spot: "diagram-a",
            // Played to the end, where the diagram's calls are the totals the narration quotes.
            playback: None,
            minutes: None,
            hop: Some(3),
            // The SLO line under the headline counts the failures that answer it.
            veil: &["slo-status-a"],
        },
        Step {
            link: "page=storm&preset=chain-3x3&pattern=batch&requests=1000&l1.backoff=exponential&l1.jitter=full&l1.backoff_ms=100&l1.backoff_cap=3000",
            knobs: &["l1.jitter", "l1.backoff_ms"],
            title: tr("Jitter spreads, it does not reduce", "抖动只分散，不减少"),
            narration: tr(
                "Now {h-a-original_requests} requests arrive at once and fail together. Before retry n the client sleeps random({#0}, min({set-l1.backoff_cap}, {set-l1.backoff_ms} × {#2}^(n−{#1}))), as in the source's code: exponential backoff with full jitter. Watch the load chart.",
                "现在 {h-a-original_requests} 个请求同时到达、同时失败。与来源代码一致，客户端在第 n 次重试前等待 random({#0}, min({set-l1.backoff_cap}, {set-l1.backoff_ms} × {#2}^(n−{#1})))：指数退避加全抖动（Full Jitter）。观察负载图。",
            ),
            question: Some(tr(
                "With full jitter, how many calls reach payment?",
                "加上全抖动后，有多少次调用到达支付服务？",
            )),
            answer: Some(tr(
                "{bd-a-hop3}, still {h-a-amplification}. Jitter moves retries apart in time so they stop landing in one wave; it removes none of them (and here only the client waits: gateway and order still retry at once). Against a fault that fails every call, jitter removes no calls, it only moves them. Where failures come from overload, spreading retries lets more of them succeed, so fewer follow; but only fewer attempts, a retry budget, a deadline or an open breaker put a ceiling on the calls.",
                "{bd-a-hop3} 次，仍是 {h-a-amplification}。抖动把重试在时间上错开，不再集中成一波冲击，但一次也没有减少（而且这里只有客户端等待，网关和订单服务仍立即重试）。面对让每次调用都失败的故障，抖动一次调用也减少不了，只是把它们挪到别的时刻。若失败源于过载，把重试错开能让更多重试成功，后续重试也就更少；但只有减少尝试次数、重试预算、截止时间或打开的熔断器，才能给调用数设上限。",
            )),
            try_this: Some(tr(
                "Set the jitter to “none”: the retries come back in waves.",
                "把抖动设为“无”：重试会一波一波地涌回来。",
            )),
            spot: "chart-load-a",
            playback: Some(Playback {
                from_ms: 0.0,
                pause_ms: 560.0,
                veil_from_start: false,
                on_reveal: OnReveal::PlayOn,
            }),
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=storm&preset=chain-3x3&l1.budget=ratio&l1.budget_max=100&l1.budget_ratio=0.1&l2.budget=ratio&l2.budget_max=100&l2.budget_ratio=0.1&l3.budget=ratio&l3.budget_max=100&l3.budget_ratio=0.1",
            knobs: &["l1.budget", "l2.budget", "l3.budget"],
            title: tr(
                "A retry budget: retries within {= set-l1.budget_ratio * 100} %",
                "重试预算：重试不超过 {= set-l1.budget_ratio * 100}%",
            ),
            narration: tr(
                "Each layer now keeps the source's budget: a bucket of {set-l1.budget_max:n} tokens; a retry spends {#1}, a successful first attempt earns {set-l1.budget_ratio:n}, so retries stay within about {= set-l1.budget_ratio * 100} % of successful first attempts (the source's code pays on every success, retried ones too; the model pays for first attempts only, so the ratio reads exactly that way). When the bucket is empty the retry is refused and the request fails fast.",
                "现在每层都有来源中的重试预算：{set-l1.budget_max:n} 个令牌的桶；每次重试花 {#1} 个，每次首次尝试成功补充 {set-l1.budget_ratio:n} 个，因此重试约不超过成功首次请求的 {= set-l1.budget_ratio * 100}%（来源代码在每次成功时都补充，包括重试后的成功；模型只在首次尝试成功时补充，所以这个比例正好是上面的含义）。桶空时拒绝重试，请求快速失败。",
            ),
            question: Some(tr(
                "Payment still fails every call. How many calls reach it now?",
                "支付服务仍然每次都失败。现在有多少次调用到达它？",
            )),
            answer: Some(tr(
                "{bd-a-hop3} ({h-a-amplification}): each layer spends its {set-l1.budget_max:n} starting tokens ({h-a-retries} retries in all) and nothing refills them, since nothing succeeds; {h-a-retry_budget_denied} retries are refused. Once calls succeed again the budget refills: retries are kept for transient faults. The budgets are per layer, so they multiply: with calls succeeding, each layer may add its {= set-l1.budget_ratio * 100} %, up to about {= ( 1 + set-l1.budget_ratio ) * ( 1 + set-l2.budget_ratio ) * ( 1 + set-l3.budget_ratio )}× over three layers, on top of each bucket's starting tokens.",
                "{bd-a-hop3} 次（{h-a-amplification}）：每层花光最初的 {set-l1.budget_max:n} 个令牌（共 {h-a-retries} 次重试），没有任何成功来补充；{h-a-retry_budget_denied} 次重试被拒绝。调用重新成功后预算回补：重试只留给短暂故障。预算是每层各自的，所以会相乘：调用成功时每层都可多出 {= set-l1.budget_ratio * 100}%，三层合计最多约 {= ( 1 + set-l1.budget_ratio ) * ( 1 + set-l2.budget_ratio ) * ( 1 + set-l3.budget_ratio )} 倍，另加每个桶最初的令牌。",
            )),
            try_this: Some(tr(
                "Set one layer's retry budget to none: its line leaves the token chart, and nothing refuses that layer's retries any more.",
                "把其中一层的重试预算设为“无”：它的令牌曲线从图中消失，这一层的重试再也不会被拒绝。",
            )),
            spot: "chart-budget-a",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
        Step {
            link: "page=breaker&preset=source-001",
            knobs: &["failure_pct", "open_ms"],
            title: tr(
                "The client breaker: {set-failure_pct:n} %, then {= set-open_ms / 1000} s of quiet",
                "客户端熔断：失败率 {set-failure_pct:n}%，然后安静 {= set-open_ms / 1000} s",
            ),
            narration: tr(
                "Payment fails {set-phase_fail.2:n} % of calls for {= set-phase_ms.2 / 1000} s. The client's breaker judges 'a short period' — here the last {set-window:n} s: at {set-failure_pct:n} % failures it opens and, for {= set-open_ms / 1000} s, sends nothing and runs the local fallback. {breaker-rejected} calls never reached payment.",
                "支付服务在 {= set-phase_ms.2 / 1000} s 内有 {set-phase_fail.2:n}% 的调用失败。客户端熔断器统计“短周期”——这里取最近 {set-window:n} s：失败率达到 {set-failure_pct:n}% 即打开，{= set-open_ms / 1000} s 内不再发起请求，转而执行本地降级逻辑。共 {breaker-rejected} 次调用没有发往支付服务。",
            ),
            question: Some(tr(
                "When payment recovers, does the breaker close right away?",
                "支付服务恢复后，熔断器会立即关闭吗？",
            )),
            answer: Some(tr(
                "No. It probes only after its {= set-open_ms / 1000} s; the first probes still met failures, so it opened for another {= set-open_ms / 1000} s and closed after {breaker-probes} probes in all: {breaker-transitions} state changes. A long open time gives payment room to heal but keeps refusing after it has healed: tune it, do not guess it.",
                "不会。它要等满 {= set-open_ms / 1000} s 才探测；第一次探测仍遇到失败，于是再打开 {= set-open_ms / 1000} s，共 {breaker-probes} 次探测后才关闭，状态变化 {breaker-transitions} 次。较长的打开时间给支付服务留出自愈窗口，但在它恢复后仍会继续拒绝：这个值要调，不能拍脑袋。",
            )),
            try_this: Some(tr(
                "Set the open time to {#5,000} ms ({#5} s) and count the state changes.",
                "把打开时长设为 {#5,000} ms（{#5} s），数一数状态变化。",
            )),
            spot: "breaker-band",
            playback: None,
            minutes: None,
            hop: None,
            // The band and the table of state changes show when it closed: open twice,
            // until long after payment recovered.
            veil: &["breaker-band", "breaker-changes"],
        },
        Step {
            link: "page=storm&preset=chain-3x3&l1.budget=ratio&l1.fallback=unavailable&l1.budget_max=100&l1.budget_ratio=0.1&l2.budget=ratio&l2.budget_max=100&l2.budget_ratio=0.1&l3.budget=ratio&l3.budget_max=100&l3.budget_ratio=0.1",
            knobs: &["l1.fallback", "l1.attempts"],
            title: tr(
                "When retries end: a clear answer, never a fake one",
                "重试结束之后：给明确的回答，绝不伪造",
            ),
            narration: tr(
                "The budgets stay; now a fallback answers when the retries end: instead of a blank error page, the client says 'payment status unknown, we will confirm' (the model's “unavailable” fallback): {h-a-degraded} such answers, {h-a-failed} failures, the slowest after {h-a-latency_max}.",
                "重试预算保持不变；现在重试结束时由降级来回答：客户端不再显示空白的错误页，而是回答“支付结果未知，稍后确认”（模型中的“标记不可用”降级）：这样的回答 {h-a-degraded} 个，失败 {h-a-failed} 个，最慢的耗时 {h-a-latency_max}。",
            ),
            question: Some(tr(
                "A payment call failed or timed out: should it be retried automatically?",
                "支付调用失败或超时了：应该自动重试吗？",
            )),
            answer: Some(tr(
                "Only with a unique Idempotency-Key: a 5xx or a timeout does not prove the charge did not happen. The chain shown still retries payment at every layer, which this design should not: without a key, payment gets one attempt; keep the button disabled while loading and say 'unknown, we will confirm' rather than 'failed'. The model counts these answers as degraded and does not simulate duplicate charges: that risk is for the design to remove. Note that core success now reads as if every payment were served: for a payment, 'unknown' is not success. Count it as neither until it is reconciled, and give it its own objective.",
                "只有带着唯一的 Idempotency-Key 才可以：5xx 或超时都不能证明没有扣款。图中的调用链仍在每一层重试支付，这个设计不应如此：没有幂等键时，支付只尝试一次；加载期间按钮保持禁用，回答“结果未知，稍后确认”而不是“失败”。模型把这些回答计为降级，也不模拟重复扣款：这个风险要靠设计消除。注意此时核心成功率读起来像是每笔支付都已应答：对支付而言，“未知”不是成功；在对账之前它既不算成功也不算失败，要单独设目标。",
            )),
            try_this: Some(tr(
                "Set the fallback to “none”: the failures come back.",
                "把降级设为“无”：失败又回来了。",
            )),
            spot: "headline",
            playback: None,
            minutes: None,
            hop: None,
            veil: &[],
        },
    ],
};
