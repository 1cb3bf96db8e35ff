<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Catalog</name>
    <message>
        <source>cannot read {file}: {reason}</source>
        <translation>无法读取 {file}：{reason}</translation>
    </message>
    <message>
        <source>catalogue data is malformed: {problem}</source>
        <translation>硬件目录数据格式有误：{problem}</translation>
    </message>
</context>
<context>
    <name>Compare</name>
    <message>
        <source>weights x 1.2 (rule of thumb; long contexts need more for the KV cache)</source>
        <translation>权重 × 1.2（经验值；长上下文还需更多显存存放 KV 缓存）</translation>
    </message>
    <message>
        <source>LoRA: weights + adapters with their optimizer state, x 1.2</source>
        <translation>LoRA：权重 + 适配器及其优化器状态，× 1.2</translation>
    </message>
    <message>
        <source>full training with AdamW in mixed precision: 16 bytes per parameter x 1.2, activations not included</source>
        <translation>AdamW 混合精度全量训练：每个参数 16 字节 × 1.2，未计激活值</translation>
    </message>
    <message>
        <source>12V-2x6 / 12VHPWR (16-pin)</source>
        <translation>12V-2x6 / 12VHPWR（16-pin）</translation>
    </message>
    <message>
        <source>12-pin (Founders Edition)</source>
        <translation>12-pin（公版）</translation>
    </message>
    <message>
        <source>{n} x 8-pin + {m} x 6-pin</source>
        <translation>{n} × 8-pin + {m} × 6-pin</translation>
    </message>
    <message>
        <source>{n} x 8-pin</source>
        <translation>{n} × 8-pin</translation>
    </message>
    <message>
        <source>{n} x 6-pin</source>
        <translation>{n} × 6-pin</translation>
    </message>
    <message>
        <source>8-pin EPS (CPU type)</source>
        <translation>8-pin EPS（CPU 供电型）</translation>
    </message>
    <message>
        <source>slot power only (75 W)</source>
        <translation>仅插槽供电（75 W）</translation>
    </message>
    <message>
        <source>SXM module (server baseboard)</source>
        <translation>SXM 模块（服务器底板）</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>{w} (the same-GPU {sibling}&apos;s figure)</source>
        <translation>{w}（同一 GPU 的 {sibling} 的数值）</translation>
    </message>
    <message>
        <source>none in our sources: sized from the parts</source>
        <translation>资料中没有：按各部件计算</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Memory type, bus</source>
        <translation>显存类型、位宽</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>BF16/FP16 tensor, dense, FP32 accumulate</source>
        <translation>BF16/FP16 张量（稠密，FP32 累加）</translation>
    </message>
    <message>
        <source>FP8 tensor, dense</source>
        <translation>FP8 张量（稠密）</translation>
    </message>
    <message>
        <source>FP32 (non-tensor)</source>
        <translation>FP32（非张量）</translation>
    </message>
    <message>
        <source>Board power</source>
        <translation>整卡功耗</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s required system power</source>
        <translation>NVIDIA 建议电源功率</translation>
    </message>
    <message>
        <source>Power connector</source>
        <translation>供电接口</translation>
    </message>
    <message>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <source>Width (slots)</source>
        <translation>厚度（槽位）</translation>
    </message>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>ECC memory</source>
        <translation>ECC 显存</translation>
    </message>
    <message>
        <source>Launch price (USD)</source>
        <translation>首发价（美元）</translation>
    </message>
</context>
<context>
    <name>Money</name>
    <message>
        <source>1 USD = {rate} {code} (rate of {date}; {source})</source>
        <translation>1 美元 = {rate} {code}（{date} 的汇率；{source}）</translation>
    </message>
    <message>
        <source>US launch price</source>
        <translation>美国首发价</translation>
    </message>
    <message>
        <source>China suggested retail price at launch</source>
        <translation>国内首发建议零售价</translation>
    </message>
    <message>
        <source>US residential average, July 2026</source>
        <translation>美国居民平均电价（2026 年 7 月）</translation>
    </message>
    <message>
        <source>China household average, March 2024</source>
        <translation>中国居民平均电价（2024 年 3 月）</translation>
    </message>
    <message>
        <source>China suggested retail price at launch (VAT included)</source>
        <translation>国内首发建议零售价（含增值税）</translation>
    </message>
    <message>
        <source>Beijing household tiered tariff (no time-of-use), per month</source>
        <translation>北京居民阶梯电价（非峰谷），按月计</translation>
    </message>
    <message>
        <source>{what} ({read}); converted from USD at {rate} ({date})</source>
        <translation>{what}（{read}）；按 {rate}（{date}）由美元换算</translation>
    </message>
    <message>
        <source>{what} ({read})</source>
        <translation>{what}（{read}）</translation>
    </message>
    <message>
        <source>Tiered tariff ({what}, from {date}): this PC&apos;s {kwh} kWh a month come on top of a household&apos;s first {base} kWh, so they cost {parts}: {avg}/kWh on average. Enter your own tariff if it differs.</source>
        <translation>阶梯电价（{what}，自 {date} 起）：这台电脑每月 {kwh} kWh 的用电叠加在家庭本身的前 {base} kWh 之上，所以按 {parts} 计价：平均每 kWh {avg}。如果你的电价不同，请填入自己的电价。</translation>
    </message>
    <message>
        <source>{provider}, lowest price listed on a public price index (snapshot about {snapshot}), read {read}</source>
        <translation>{provider}，公开价格指数上的最低报价（快照约 {snapshot}），读取于 {read}</translation>
    </message>
    <message>
        <source>No sourced household electricity price for {code} on file: this is the US average converted at the dated rate; enter your own tariff.</source>
        <translation>资料中没有 {code} 的有出处的居民电价：这里是按注明日期的汇率换算的美国平均电价，请填写你自己的电价。</translation>
    </message>
    <message>
        <source>Default: {what}, read {read}; enter your own tariff.</source>
        <translation>默认值：{what}，读取于 {read}；请填写你自己的电价。</translation>
    </message>
    <message>
        <source>Default: {what}, read {read} ({source}); enter your own tariff.</source>
        <translation>默认值：{what}，读取于 {read}（{source}）；请填写你自己的电价。</translation>
    </message>
</context>
<context>
    <name>Psu</name>
    <message>
        <source>GPU vendor&apos;s figure: {methods}</source>
        <translation>显卡厂商数值：{methods}</translation>
    </message>
    <message>
        <source>{w} W, set by {rule}: {detail}</source>
        <translation>{w} W，取决于“{rule}”：{detail}</translation>
    </message>
    <message>
        <source>CPU {name}</source>
        <translation>CPU {name}</translation>
    </message>
    <message>
        <source>GPU {name}</source>
        <translation>显卡 {name}</translation>
    </message>
    <message>
        <source>Motherboard</source>
        <translation>主板</translation>
    </message>
    <message>
        <source>Memory ({n} sticks)</source>
        <translation>内存（{n} 条）</translation>
    </message>
    <message>
        <source>Drives</source>
        <translation>硬盘</translation>
    </message>
    <message>
        <source>Fans, pumps, lighting</source>
        <translation>风扇、水泵、灯效</translation>
    </message>
    <message>
        <source>USB devices</source>
        <translation>USB 设备</translation>
    </message>
    <message>
        <source>{gpu}: one 12V-2x6 (12VHPWR) lead rated {level} W or more, or the adapter with {n} separate 8-pin leads</source>
        <translation>{gpu}：一根额定 {level} W 及以上的 12V-2x6（12VHPWR）线，或用转接线接 {n} 根独立的 8-pin 线</translation>
    </message>
    <message>
        <source>{gpu}: Founders Edition 12-pin adapter with {n} separate 8-pin leads (partner cards: see the card&apos;s manual)</source>
        <translation>{gpu}：公版 12-pin 转接线，接 {n} 根独立的 8-pin 线（非公版请查看显卡说明书）</translation>
    </message>
    <message>
        <source>{gpu}: {n} PCIe 8-pin (6+2) leads on the reference card; partner cards may need more</source>
        <translation>{gpu}：公版需要 {n} 根 PCIe 8-pin（6+2）线；非公版可能需要更多</translation>
    </message>
    <message>
        <source>{gpu}: {n} 8-pin EPS (CPU-type) lead, not a PCIe 8-pin</source>
        <translation>{gpu}：{n} 根 8-pin EPS（CPU 供电型）线，不是 PCIe 8-pin</translation>
    </message>
    <message>
        <source>{gpu}: powered by the slot alone</source>
        <translation>{gpu}：仅靠插槽供电</translation>
    </message>
    <message>
        <source>{gpu}: an SXM module powered by its server baseboard, not by a desktop PSU</source>
        <translation>{gpu}：SXM 模块，由服务器底板供电，不用台式机电源</translation>
    </message>
    <message>
        <source>{gpu}: power connector not in the catalogue; check the card&apos;s manual</source>
        <translation>{gpu}：目录中没有它的供电接口信息，请查看显卡说明书</translation>
    </message>
    <message>
        <source>No add-in GPU in this build.</source>
        <translation>这套配置里没有插卡式显卡。</translation>
    </message>
    <message>
        <source>Choose a CPU to see how the PCIe lanes are shared.</source>
        <translation>选择 CPU 后可查看 PCIe 通道如何分配。</translation>
    </message>
    <message>
        <source>{gpu} gets x{w} PCIe {gen}.0 from the CPU.</source>
        <translation>{gpu} 从 CPU 获得 x{w} PCIe {gen}.0 通道。</translation>
    </message>
    <message>
        <source>{cpu} has {lanes} lanes for graphics: every card gets x16 from the CPU.</source>
        <translation>{cpu} 有 {lanes} 条显卡通道：每张卡都能从 CPU 获得 x16。</translation>
    </message>
    <message>
        <source>{cpu} has 16 lanes for graphics: two cards run x8+x8 only on boards that split the CPU lanes (check the manual); otherwise the second card sits in a chipset x4 slot.</source>
        <translation>{cpu} 只有 16 条显卡通道：只有支持拆分 CPU 通道的主板才能让两张卡跑 x8+x8（请查看主板说明书）；否则第二张卡只能插在芯片组的 x4 插槽上。</translation>
    </message>
    <message>
        <source>{cpu} gives {k} cards x{w} from the CPU; the others sit in chipset x4 slots.</source>
        <translation>{cpu} 可为 {k} 张卡提供来自 CPU 的 x{w} 通道；其余的卡插在芯片组的 x4 插槽上。</translation>
    </message>
    <message>
        <source>{n} of the cards share the chipset&apos;s uplink at x4 or less: slow for loading models and for multi-GPU training. A platform with more CPU lanes (Threadripper PRO, Xeon W) gives every card x16.</source>
        <translation>有 {n} 张卡共享芯片组的 x4（或更窄）上行链路：加载模型和多卡训练都会变慢。CPU 通道更多的平台（Threadripper PRO、Xeon W）可让每张卡都跑 x16。</translation>
    </message>
    <message>
        <source>GeForce RTX 40 cards have no NVLink and the driver disables peer-to-peer over PCIe: multi-GPU training exchanges gradients through host memory.</source>
        <translation>GeForce RTX 40 系列没有 NVLink，驱动也禁用了 PCIe 点对点（P2P）传输：多卡训练的梯度要经主机内存交换。</translation>
    </message>
    <message>
        <source>{n} cards of up to {slots:.1f} slots each need about {needed} expansion slots with a gap for air; a standard ATX case has 7 and many boards space their x16 slots too closely. Check slot spacing, or use blower-style or water-cooled cards or riser cables.</source>
        <translation>{n} 张最厚 {slots:.1f} 槽的显卡，加上散热间隙约需 {needed} 个扩展槽位；标准 ATX 机箱只有 7 个，很多主板的 x16 插槽间距也不够。请核对插槽间距，或改用涡轮散热卡、水冷卡或延长线。</translation>
    </message>
    <message>
        <source>{gpu}: {w} W, the figure of the same-GPU {sibling}</source>
        <translation>{gpu}：{w} W，采用同一 GPU 的 {sibling} 的数值</translation>
    </message>
    <message>
        <source>{gpu}: no vendor figure in our sources; sized from the parts</source>
        <translation>{gpu}：资料中没有厂商数值；按各部件计算</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s required system power for {gpu}: {w} W</source>
        <translation>NVIDIA 对 {gpu} 建议的系统电源功率：{w} W</translation>
    </message>
    <message>
        <source>{base}, plus the other cards&apos; board power</source>
        <translation>{base}，再加上其他显卡的板卡功耗</translation>
    </message>
    <message>
        <source>{s} W sustained / {share} x {a} (ageing under 24/7 load) = {req} W</source>
        <translation>持续 {s} W / {share} × {a}（24/7 负载下的老化）= {req} W</translation>
    </message>
    <message>
        <source>{s} W sustained / {share} = {req} W</source>
        <translation>持续 {s} W / {share} = {req} W</translation>
    </message>
    <message>
        <source>ATX 3.x</source>
        <translation>ATX 3.x</translation>
    </message>
    <message>
        <source>ATX 2.x</source>
        <translation>ATX 2.x</translation>
    </message>
    <message>
        <source>GPU spikes of {p100} W for 100 us within {pct100}% and {p10} W for 10 ms within {pct10}% of the rating ({std})</source>
        <translation>显卡 100 微秒 {p100} W 的峰值须在额定功率的 {pct100}% 以内，10 毫秒 {p10} W 的峰值须在 {pct10}% 以内（{std}）</translation>
    </message>
    <message>
        <source>Renting at {rate}/h costs less than the electricity this card&apos;s share of the PC uses ({energy}/h): buying never pays off.</source>
        <translation>按 {rate}/小时租用，比这张卡所分摊的整机电费（{energy}/小时）还便宜：买卡永远回不了本。</translation>
    </message>
    <message>
        <source>Owning pays off after {hours} hours of use ({days} days at 24/7), against renting at {rate}/h.</source>
        <translation>与按 {rate}/小时租用相比，自购在使用 {hours} 小时后回本（24/7 运行约 {days} 天）。</translation>
    </message>
    <message>
        <source>{gpu}: no price on file: enter one.</source>
        <translation>{gpu}：没有价格记录：请填写。</translation>
    </message>
    <message>
        <source>{gpu}: no cloud price on file for this card: enter one.</source>
        <translation>{gpu}：没有这张卡的云端价格记录：请填写。</translation>
    </message>
    <message>
        <source>{gpu}: {verdict}</source>
        <translation>{gpu}：{verdict}</translation>
    </message>
    <message>
        <source>GPU vendor&apos;s required system power</source>
        <translation>显卡厂商建议的电源功率</translation>
    </message>
    <message>
        <source>Sustained load at most {pct}% of the rating</source>
        <translation>持续负载不超过额定功率的 {pct}%</translation>
    </message>
    <message>
        <source>Sustained load at most {pct}% of the rating, x {a} ageing (24/7)</source>
        <translation>持续负载不超过额定功率的 {pct}%，× {a} 老化（24/7）</translation>
    </message>
    <message>
        <source>Power excursions (ATX 3.x limits)</source>
        <translation>瞬时功耗峰值（ATX 3.x 限值）</translation>
    </message>
    <message>
        <source>Power excursions (ATX 2.x limits)</source>
        <translation>瞬时功耗峰值（ATX 2.x 限值）</translation>
    </message>
    <message>
        <source>Close to a size: the requirement ({req} W, from {rule}) is only {pct}% over {smaller} W. A good {smaller} W unit would run this build at {load}% of its rating under full load; {rec} W keeps the margin the rules ask for.</source>
        <translation>接近一个规格：需求（{req} W，来自“{rule}”）只比 {smaller} W 高 {pct}%。一台好的 {smaller} W 电源满载时会以额定功率的 {load}% 运行；{rec} W 则保留规则要求的余量。</translation>
    </message>
    <message>
        <source>Your {psu} W PSU is below the minimum of {min} W for this build.</source>
        <translation>你的 {psu} W 电源低于这套配置的最低要求 {min} W。</translation>
    </message>
    <message>
        <source>Your {psu} W PSU meets the minimum ({min} W) but not the recommended {rec} W: expect fan noise and little margin as it ages.</source>
        <translation>你的 {psu} W 电源达到最低要求（{min} W），但低于推荐的 {rec} W：风扇会较吵，老化后余量也很小。</translation>
    </message>
    <message>
        <source>GPU spikes (about {peak} W for 100 us) exceed what an ATX 2.x PSU of this size must tolerate: it may shut down under load.</source>
        <translation>显卡瞬时峰值（100 微秒内约 {peak} W）超出这个功率的 ATX 2.x 电源必须承受的范围：高负载时可能断电保护。</translation>
    </message>
    <message>
        <source>GPU spikes (about {p10} W for 10 ms, {p100} W for 100 us) exceed the ATX 3.x excursion limits of a {psu} W unit: it may shut down under load.</source>
        <translation>显卡瞬时峰值（10 毫秒约 {p10} W，100 微秒约 {p100} W）超出 {psu} W 电源的 ATX 3.x 瞬时功耗限值：高负载时可能断电保护。</translation>
    </message>
    <message>
        <source>More than a single {max} W PSU: use two PSUs with an add2psu adapter, a server PSU, or power-limit the GPUs (nvidia-smi -pl).</source>
        <translation>超出单个 {max} W 电源的能力：可用 add2psu 双电源方案、服务器电源，或限制显卡功耗（nvidia-smi -pl）。</translation>
    </message>
    <message>
        <source>About {wall} W from the wall: more than a 15 A / 120 V household circuit should carry continuously (1440 W). Fine on 230 V.</source>
        <translation>墙插功耗约 {wall} W：超过 15 A / 120 V 家用电路的持续负载上限（1440 W）。在 220–230 V 电网下没有问题。</translation>
    </message>
    <message>
        <source>{n} hard disks draw about {w} W together while spinning up; enable staggered spin-up if the controller supports it.</source>
        <translation>{n} 块机械硬盘同时启动时共约 {w} W；若控制器支持，请开启错峰启动。</translation>
    </message>
    <message>
        <source>The PSU has {have8} PCIe 8-pin and {have16} 12V-2x6 leads; this build needs {need8} 8-pin leads with {use16} native 12V-2x6.</source>
        <translation>电源有 {have8} 根 PCIe 8-pin 线和 {have16} 根 12V-2x6 线；这套配置在使用 {use16} 根原生 12V-2x6 的情况下还需要 {need8} 根 8-pin 线。</translation>
    </message>
    <message>
        <source>Push the 12V-2x6 plug fully home and do not bend the cable sharply at the plug; melted connectors were still reported on the revised socket.</source>
        <translation>12V-2x6 插头要完全插到底，插头处不要急弯走线；改版接口上仍有烧熔的报告。</translation>
    </message>
    <message>
        <source>Use a separate PSU lead for each 8-pin input rather than the second plug of a daisy-chained lead.</source>
        <translation>每个 8-pin 接口请用一根独立的电源线，不要用一拖二线的第二个插头。</translation>
    </message>
    <message>
        <source>{gpu} is a laptop GPU: the laptop&apos;s own adapter powers it, so desktop PSU sizing does not apply.</source>
        <translation>{gpu} 是笔记本显卡：由笔记本自带的电源适配器供电，台式机电源计算不适用。</translation>
    </message>
    <message>
        <source>{gpu} is an SXM module for servers, not a desktop card.</source>
        <translation>{gpu} 是服务器用的 SXM 模块，不是台式机显卡。</translation>
    </message>
    <message>
        <source>{gpu}: NVIDIA&apos;s required system power ({w} W) is not verified in our sources; we use it anyway, which only errs high.</source>
        <translation>{gpu}：NVIDIA 建议电源功率（{w} W）在我们的资料中未经核实；仍按它计算，只会偏大不会偏小。</translation>
    </message>
    <message>
        <source>Factory-overclocked partner cards often raise the power limit (some 4090s ask for a 1000 W PSU): use the card maker&apos;s figure if it is higher.</source>
        <translation>工厂超频的非公版显卡常会提高功耗上限（有些 4090 要求 1000 W 电源）：若显卡厂商给出的数值更高，以它为准。</translation>
    </message>
</context>
<context>
    <name>PsuReport</name>
    <message>
        <source>enough</source>
        <translation>够用</translation>
    </message>
    <message>
        <source>enough, but below our recommendation</source>
        <translation>够用，但低于推荐值</translation>
    </message>
    <message>
        <source>not enough</source>
        <translation>不够用</translation>
    </message>
    <message>
        <source>24/7 training</source>
        <translation>全天候训练</translation>
    </message>
    <message>
        <source>gaming</source>
        <translation>游戏</translation>
    </message>
    <message>
        <source>Build: {parts} ({usage})</source>
        <translation>配置：{parts}（{usage}）</translation>
    </message>
    <message>
        <source>Sustained load: {s} W   peaks: {p10} W for 10 ms, {p100} W for 100 us</source>
        <translation>持续负载：{s} W   峰值：10 毫秒 {p10} W，100 微秒 {p100} W</translation>
    </message>
    <message>
        <source>Recommended PSU: {w} W  (never below {m} W)</source>
        <translation>推荐电源：{w} W（不低于 {m} W）</translation>
    </message>
    <message>
        <source>Why: {reason}</source>
        <translation>原因：{reason}</translation>
    </message>
    <message>
        <source>Your {w} W PSU: {verdict}</source>
        <translation>你的 {w} W 电源：{verdict}</translation>
    </message>
    <message>
        <source>Power connectors:</source>
        <translation>供电接口：</translation>
    </message>
    <message>
        <source>PCIe lanes: {plan}</source>
        <translation>PCIe 通道：{plan}</translation>
    </message>
    <message>
        <source>From the wall: {wall} W at {eff}% efficiency ({level}, {load}% load): {cur} {hour:.2f} per hour, {cur} {day:.2f} per day of {hours} h</source>
        <translation>墙插功耗：{wall} W，效率 {eff}%（{level}，负载 {load}%）：每小时 {cur} {hour:.2f}，每天（{hours} 小时）{cur} {day:.2f}</translation>
    </message>
    <message>
        <source>&apos;{query}&apos; also names {other}, a server SXM module; using {gpu}, the PCIe card for a desktop build (type the full name for the other)</source>
        <translation>“{query}”也可指服务器用的 SXM 模块 {other}；台式机装机按 PCIe 显卡 {gpu} 计算（要用前者请输入完整名称）</translation>
    </message>
    <message>
        <source>{provider} (catalogue snapshot)</source>
        <translation>{provider}（价目表快照）</translation>
    </message>
    <message>
        <source>{provider} (marketplace range {detail})</source>
        <translation>{provider}（市场价区间 {detail}）</translation>
    </message>
    <message>
        <source>{provider} serverless ({detail})</source>
        <translation>{provider} Serverless（{detail}）</translation>
    </message>
    <message>
        <source>{provider}</source>
        <translation>{provider}</translation>
    </message>
    <message>
        <source>{provider}, read {date} ({source})</source>
        <translation>{provider}，{date} 读取（{source}）</translation>
    </message>
    <message>
        <source>Buy vs rent, card by card (each card&apos;s share of the power at {price}/kWh):</source>
        <translation>买还是租，逐卡比较（每张卡分摊的电量，电价 {price}/千瓦时）：</translation>
    </message>
    <message>
        <source>{gpu}: card {price}, resale {resale}, cloud {rate}/h; {w} W of the PC&apos;s power costs {energy}/h</source>
        <translation>{gpu}：显卡 {price}，转售 {resale}，云端 {rate}/小时；分摊整机 {w} W，电费 {energy}/小时</translation>
    </message>
    <message>
        <source>Budget: {budget}</source>
        <translation>预算：{budget}</translation>
    </message>
    <message>
        <source>No card in the catalogue matches (within budget).</source>
        <translation>目录中没有符合条件的显卡（预算内）。</translation>
    </message>
    <message>
        <source>Cards that hold the work first, then by dense BF16 tensor TFLOPS and bandwidth per 1000 of price (never sparse or FP4 figures):</source>
        <translation>先列出装得下任务的显卡，再按每 1000 单位货币价格的稠密 BF16 张量 TFLOPS 和带宽排序（从不使用稀疏或 FP4 数值）：</translation>
    </message>
    <message>
        <source>Cards without a launch price on file: give yours with --price CARD=AMOUNT.</source>
        <translation>没有首发价记录的显卡：用 --price 显卡=金额 填写你的价格。</translation>
    </message>
    <message>
        <source>The cheapest card that holds the work is {gpu} ({price}).</source>
        <translation>装得下这项任务的最便宜显卡是 {gpu}（{price}）。</translation>
    </message>
    <message>
        <source>* best of the compared cards</source>
        <translation>* 所比较显卡中的最佳值</translation>
    </message>
    <message>
        <source>Work: {label}, needs about {gib:.1f} GiB on one GPU ({method})</source>
        <translation>任务：{label}，单卡约需 {gib:.1f} GiB（{method}）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>装得下</translation>
    </message>
    <message>
        <source>too small</source>
        <translation>显存不足</translation>
    </message>
    <message>
        <source>enter a price</source>
        <translation>请填写价格</translation>
    </message>
    <message>
        <source>launch price</source>
        <translation>首发价</translation>
    </message>
    <message>
        <source>your price</source>
        <translation>你的价格</translation>
    </message>
    <message>
        <source>No single card in the catalogue holds the work: split it across several GPUs or quantize it.</source>
        <translation>目录中没有单张显卡装得下：请拆分到多张卡上，或进行量化。</translation>
    </message>
</context>
</TS>
