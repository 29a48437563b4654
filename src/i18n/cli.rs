//! The command line's texts (`src/bin/lab.rs`): its help, messages and text outputs, in
//! English and Simplified Chinese. Its JSON, CSV and digest are the page's exports and do
//! not change with the language. A table of its own, so that the page's bundle does not
//! carry words it never shows: the tables are one string per language, so a binary that
//! uses one key of a table carries all its text, and the page uses none of this one.

super::table::texts! {
    /// A key into the command line's text table.
    Cli;
    Usage => "usage:
  lab presets
  lab run (--preset NAME [--versus] | --scenario FILE.json | --link LINK [--versus]) [--seed N]
          [--format json|table|csv|digest] [--engine auto|general] [--max-calls N]
  lab show (--preset NAME | --link LINK) [--versus]
  lab link --scenario FILE.json [--preset NAME]
  lab sweep [--preset NAME] [--x KNOB=A..B/N] [--y KNOB=A..B/N] [--protect none|budget|cancel|breaker]
            [--seed N] [--format table|csv]
  lab keys
  (any command) [--lang en|zh]     lab --version

  presets lists the presets and what each shows; show prints one, or what a storm page link
  runs, as a scenario file (JSON) to edit and run with --scenario (--scenario - reads it from
  the standard input); link prints the storm page link that runs a scenario file, naming the
  fields the page has no control for; keys lists the retry-storm page's link keys and ranges.
  --versus runs the preset's comparison scenario (side B of compare mode).
  --link runs what a storm page link shows (its side A; side B with --versus), seed included:
  the whole address Copy link gives, or its query alone.
  --seed N: a whole number from 0 to 18446744073709551615 (default: the scenario's own seed).
  --engine general skips the retry-chain kernel (same report, slower; for comparisons).
  --max-calls refuses scenarios implying more calls than N (1 to 200000000, the default).
  --format: json the whole report; table its summary and hops; csv its time series (one row a
  bucket); digest the report's FNV-1a digest, as the page's data-digest.
  --lang: the language of this help, the messages and the tables (default: LAB_LANG, else
  LANG; JSON, CSV and digests are the same in both).
  -h, --help after any command prints this.
  sweep: the stability map (default: metastable-retry-storm, utilisation=0.05..1/20 against
  trigger_ms=50..1000/20); KNOB is utilisation, trigger_ms or any storm page key (lab keys);
  N is 1 to 40 steps, A and B in the knob's own unit.", "用法：
  lab presets
  lab run (--preset 名称 [--versus] | --scenario 文件.json | --link 链接 [--versus]) [--seed N]
          [--format json|table|csv|digest] [--engine auto|general] [--max-calls N]
  lab show (--preset 名称 | --link 链接) [--versus]
  lab link --scenario 文件.json [--preset 名称]
  lab sweep [--preset 名称] [--x 参数=A..B/N] [--y 参数=A..B/N] [--protect none|budget|cancel|breaker]
            [--seed N] [--format table|csv]
  lab keys
  （任一命令）[--lang en|zh]     lab --version

  presets 列出各预设及其演示的内容；show 把一个预设或一个重试风暴页链接所运行的内容打印成
  场景文件（JSON），可编辑后用 --scenario 运行（--scenario - 从标准输入读取）；link 打印运行
  某个场景文件的重试风暴页链接，并列出页面没有控件对应的字段；keys 列出重试风暴页链接的键及其取值范围。
  --versus 运行预设的对照场景（对比模式的 B 侧）。
  --link 运行重试风暴页链接所显示的内容（A 侧；加 --versus 为 B 侧），包括种子：
  可以是“复制链接”给出的完整地址，也可以只是其查询串。
  --seed N：0 到 18446744073709551615 的整数（默认：场景自带的种子）。
  --engine general 跳过重试链内核（报告相同，较慢；用于对比）。
  --max-calls 拒绝预计调用次数超过 N 的场景（1 到 200000000，默认即上限）。
  --format：json 为完整报告；table 为摘要与各跳；csv 为时间序列（每个时间桶一行）；
  digest 为报告的 FNV-1a 摘要，与网页的 data-digest 相同。
  --lang：本说明、提示信息和表格的语言（默认取 LAB_LANG，其次 LANG；JSON、CSV 和摘要
  在两种语言下完全相同）。
  -h、--help 放在任何命令之后都打印本说明。
  sweep：稳定性地图（默认：metastable-retry-storm，utilisation=0.05..1/20 对
  trigger_ms=50..1000/20）；参数为 utilisation、trigger_ms 或任一重试风暴页的键（lab keys）；
  N 为 1 到 40 格，A 和 B 用该参数自己的单位。";
    NeedsValue => "{flag} needs a value", "{flag} 需要一个值";
    UnknownArgument => "unknown argument {arg}", "无法识别的参数 {arg}";
    UnknownCommand => "unknown command {cmd}", "无法识别的命令 {cmd}";
    Repeated => "{flag} is given twice: give it once", "{flag} 出现了两次：只写一次";
    OneSource => "give exactly one of --preset, --scenario or --link", "--preset、--scenario 和 --link 三者恰好给一个";
    VersusNeeds => "--versus needs --preset or --link", "--versus 需要与 --preset 或 --link 同用";
    NoVersus => "--versus: preset {name} has no comparison scenario", "--versus：预设 {name} 没有对照场景";
    StandardInput => "the standard input", "标准输入";
    StdinIsTerminal => "--scenario -: the standard input is a terminal; pipe a scenario in (lab show --preset NAME | lab run --scenario -)", "--scenario -：标准输入是终端；请用管道传入场景（lab show --preset 名称 | lab run --scenario -）";
    CannotRead => "--scenario: cannot read {path}: {error}", "--scenario：无法读取 {path}：{error}";
    TooLarge => "--scenario: {path} is larger than {mib} MiB, allowed a scenario file of at most that size", "--scenario：{path} 大于 {mib} MiB，场景文件最多这么大";
    NotUtf8 => "--scenario: {path} is not UTF-8 text (byte {byte})", "--scenario：{path} 不是 UTF-8 文本（第 {byte} 字节）";
    ReportNotScenario => "{path} is a run's report (lab run --format json), not a scenario: `lab show --link '<its \"link\">'` prints the scenario it ran, and `lab show --preset NAME` a preset, as a scenario file to edit and run with --scenario", "{path} 是一次运行的报告（lab run --format json），不是场景：`lab show --link '<其 \"link\">'` 会把它所运行的场景、`lab show --preset 名称` 会把预设打印成可编辑、可用 --scenario 运行的场景文件";
    LinkPage => "--link: got page={page}, allowed a retry-storm page link (page=storm or no page): only its runs have a command-line twin", "--link：收到 page={page}，只接受重试风暴页的链接（page=storm 或不写 page）：只有它的运行在命令行有对应";
    LinkUnknown => "--link: the storm page does not read {keys}", "--link：重试风暴页不读取 {keys}";
    LinkNoSideB => "--versus: the link has no side B (add compare=1)", "--versus：该链接没有 B 侧（加上 compare=1）";
    TakesNoArgs => "{cmd} takes no arguments", "{cmd} 不接受参数";
    ShowNeeds => "show needs --preset NAME or --link LINK", "show 需要 --preset 名称或 --link 链接";
    ShowOnly => "show takes only --preset NAME or --link LINK, and --versus", "show 只接受 --preset 名称或 --link 链接，以及 --versus";
    LinkNeeds => "link needs --scenario FILE.json, and may take --preset NAME", "link 需要 --scenario 文件.json，可另加 --preset 名称";
    LinkLost => "the page has no control for {n} of {path}'s fields; from {preset} (--preset NAME starts from another), the link runs the page's value for each (file → page):", "重试风暴页没有控件对应 {path} 的 {n} 个字段；该链接基于 {preset}（可用 --preset 名称 换一个预设），这些字段按页面的取值运行（文件 → 页面）：";
    CannotWrite => "cannot write the output: {error}", "无法写出结果：{error}";
    Notice => "notice", "提示";
    Internal => "internal error: {message}", "内部错误：{message}";
    TooMuchWork => "load: got a scenario implying up to {estimated} calls if every attempt is used, allowed at most {cap} (above the cap: shorten the duration, lower the rate or the attempts)", "load：该场景在每次尝试都用上时最多产生 {estimated} 次调用，上限为 {cap}（超过上限：缩短时长、降低速率或尝试次数）";
    StoppedCalls => "the run stopped at {at} ms: more than {limit} calls were alive at once (queues and retries grew without bound: the system diverged). The report covers what happened up to then; requests still in flight count as unfinished.", "运行在 {at} ms 停止：同时存活的调用超过 {limit} 个（队列和重试无限增长：系统发散了）。报告涵盖此前发生的一切；仍在途中的请求计为未完成。";
    StoppedWork => "the run stopped at {at} ms after {limit} events, more than its work estimate allows. The report covers what happened up to then.", "运行在 {at} ms、处理了 {limit} 个事件后停止，超出其工作量估计所允许的范围。报告涵盖此前发生的一切。";
    ScenarioLine => "scenario  {name}  (seed {seed}){side}", "场景  {name}（种子 {seed}）{side}";
    SideB => "  side B (--versus)", "  B 侧（--versus）";
    AmplificationNote => "leaf calls per original request", "每个原始请求对应的叶子调用数";
    UnfinishedNote => "incl. {n} unfinished: still in flight when the run stopped", "含 {n} 个未完成：运行停止时仍在途中";
    // A scenario file's words (`scenario::file`) where a message quotes no value of its own.
    FileTwice => "twice", "两个值";
    FileNothing => "nothing", "（缺失）";
    FileAList => "a list", "一个列表";
    FileANumber => "a number", "一个数";
    FileAnObject => "an object", "一个对象";
    FileATaggedObject => "an object with its \"kind\"", "一个带 \"kind\" 的对象";
    SloMet => "met", "达成";
    SloBreached => "breached", "未达成";
    SloLine => "{pct} % {verdict}: {spent} failed of {allowed} allowed (error budget spent: {frac}; requests turned away at admission count apart)", "{pct} % {verdict}：失败 {spent} 个，允许 {allowed} 个（错误预算消耗：{frac}；准入拒绝的请求另计）";
    EndNote => "virtual time of the last event", "最后一个事件的虚拟时间";
    HopColumns => "hop|calls|rejected|abandoned|peak busy|peak q", "服务|调用|拒绝|弃置|繁忙峰值|排队峰值";
    HopNote => "calls: calls that reached the hop (retries included); rejected: turned away by its admission
or full queue; abandoned: worked on after the caller had stopped waiting; peak busy: most
calls holding a worker at once / workers; peak q: most calls waiting for a worker at once.", "调用：到达该服务的调用（含重试）；拒绝：被其准入控制或满队列拒绝；弃置：调用方已不再等待
后仍在处理的调用；繁忙峰值：同时占用工作线程的最多调用数 / 工作线程数；排队峰值：同时等待
工作线程的最多调用数。";
    KeysIntro => "Retry-storm page (?page=storm): preset=NAME, seed=N, compare=1, layers=N, faults=N,
l<N>.sides=N, f<N>.target=NAME, and every changed control:", "重试风暴页（?page=storm）：preset=名称、seed=N、compare=1、layers=N、faults=N、
l<N>.sides=N、f<N>.target=名称，以及每个改动过的控件：";
    SweepLegend => "legend: ", "图例：";
    SweepWithin => "{mark} recovered within {s} s", "{mark} {s} 秒内恢复";
    SweepMarks => "o recovered later
        ~ still draining its backlog (not stuck)   # stuck (the metastable state)   x overloaded (at or above capacity, or failing before the trigger)   ? could not run (why: below)", "o 更晚恢复
        ~ 仍在排空积压（未卡住）   # 卡住（亚稳态）   x 过载（达到或超过容量，或触发前已在失败）   ? 无法运行（原因见下）";
    SweepCouldNot => "? ({n} of the cells): {why}", "?（{n} 格）：{why}";
    ShareOfCapacity => "share of capacity", "占容量的比例";
    SweepGiveAxes => "{preset} has no default map (the default axes load a limited worker pool, which it lacks): give --x and --y (lab keys lists the knobs)", "{preset} 没有默认地图（默认坐标轴需要一个有上限的工作线程池，而它没有）：请给出 --x 和 --y（lab keys 列出可用参数）";
}
