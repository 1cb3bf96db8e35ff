<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CompareTab</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Tensor figures are dense (no sparsity) at FP32 accumulate, the rate GeForce cards really run for BF16/FP16 training. Marketing &apos;AI TOPS&apos; (sparse FP4) are never used. Bold: best of the compared cards.</source>
        <translation>张量算力均为稠密（不含稀疏）、FP32 累加的数值，即 GeForce 显卡做 BF16/FP16 训练时的真实速率。从不使用宣传用的“AI TOPS”（稀疏 FP4）。粗体：所比较显卡中的最佳值。</translation>
    </message>
    <message>
        <source>Which card for my work and budget?</source>
        <translation>我的任务和预算该选哪张卡？</translation>
    </message>
    <message>
        <source>Prices are US launch prices, converted at the dated rate outside USD; cards without one say &apos;enter a price&apos;. Double-click a price to enter what the card costs you today.</source>
        <translation>价格为美国首发价，非美元时按注明日期的汇率换算；没有价格的显卡显示“请填写价格”。双击价格可填写你现在的购买价格。</translation>
    </message>
    <message>
        <source>by size</source>
        <translation>按参数量</translation>
    </message>
    <message>
        <source> B params</source>
        <translation> B 参数</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>LoRA fine-tuning</source>
        <translation>LoRA 微调</translation>
    </message>
    <message>
        <source>full training</source>
        <translation>全量训练</translation>
    </message>
    <message>
        <source>no budget</source>
        <translation>不限预算</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Card</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>装得下</translation>
    </message>
    <message>
        <source>BF16 TFLOPS per {amount}</source>
        <translation>每 {amount} BF16 TFLOPS</translation>
    </message>
    <message>
        <source>GB/s per {amount}</source>
        <translation>每 {amount} GB/s</translation>
    </message>
    <message>
        <source>Needs about {gib:.1f} GiB on one GPU ({method}).</source>
        <translation>单卡约需 {gib:.1f} GiB 显存（{method}）。</translation>
    </message>
    <message>
        <source>A rough figure from the parameter count; the Model fit page gives a full breakdown.</source>
        <translation>这是按参数量粗略估算的；“模型显存”页面有完整的明细。</translation>
    </message>
    <message>
        <source>No card within the budget holds it; the cheapest that does is {gpu} ({price}).</source>
        <translation>预算内没有装得下的显卡；装得下的最便宜显卡是 {gpu}（{price}）。</translation>
    </message>
    <message>
        <source>Only cards without a price on file hold it: enter what they cost you.</source>
        <translation>只有没有价格记录的显卡装得下：请填写它们的价格。</translation>
    </message>
    <message>
        <source>No single card in the catalogue holds it: split it across GPUs or quantize it.</source>
        <translation>目录中没有单张显卡装得下：请拆分到多张卡上，或进行量化。</translation>
    </message>
    <message>
        <source>enter a price</source>
        <translation>请填写价格</translation>
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
        <source>No launch price on file: double-click and type what the card costs you.</source>
        <translation>没有首发价记录：双击并填写这张卡的价格。</translation>
    </message>
</context>
<context>
    <name>PsuPage</name>
    <message>
        <source>The hardware catalogue could not be read: {error}</source>
        <translation>无法读取硬件目录：{error}</translation>
    </message>
    <message>
        <source>Build &amp; PSU</source>
        <translation>装机与电源</translation>
    </message>
    <message>
        <source>Size the power supply for your build, check cables and PCIe lanes, and compare cards.</source>
        <translation>为你的配置计算电源功率，检查供电线和 PCIe 通道，并比较显卡。</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Compare cards</source>
        <translation>比较显卡</translation>
    </message>
    <message>
        <source>Graphics cards</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Type a card, e.g. 4090 or 4060 laptop</source>
        <translation>输入显卡型号，如 4090 或 4060 laptop</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Use this PC</source>
        <translation>使用本机硬件</translation>
    </message>
    <message>
        <source>Replace the cards and CPU with the ones found in this computer</source>
        <translation>用本机检测到的显卡和 CPU 替换当前配置</translation>
    </message>
    <message>
        <source>CPU and other parts</source>
        <translation>CPU 及其他部件</translation>
    </message>
    <message>
        <source>(no CPU)</source>
        <translation>（无 CPU）</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>RAM sticks</source>
        <translation>内存条数</translation>
    </message>
    <message>
        <source>NVMe SSDs</source>
        <translation>NVMe 固态</translation>
    </message>
    <message>
        <source>SATA SSDs</source>
        <translation>SATA 固态</translation>
    </message>
    <message>
        <source>Hard disks</source>
        <translation>机械硬盘</translation>
    </message>
    <message>
        <source>Case fans</source>
        <translation>机箱风扇</translation>
    </message>
    <message>
        <source>AIO pumps</source>
        <translation>水冷泵</translation>
    </message>
    <message>
        <source>ARGB channels</source>
        <translation>ARGB 灯效通道</translation>
    </message>
    <message>
        <source>USB devices</source>
        <translation>USB 设备</translation>
    </message>
    <message>
        <source>Use and power supply</source>
        <translation>用途与电源</translation>
    </message>
    <message>
        <source>Gaming / occasional use</source>
        <translation>游戏 / 间歇使用</translation>
    </message>
    <message>
        <source>Training 24/7</source>
        <translation>全天候训练</translation>
    </message>
    <message>
        <source>ATX 3.x with a 12V-2x6 lead</source>
        <translation>ATX 3.x，带 12V-2x6 线</translation>
    </message>
    <message>
        <source>ATX 2.x or no 12V-2x6 lead</source>
        <translation>ATX 2.x 或无 12V-2x6 线</translation>
    </message>
    <message>
        <source>not certified</source>
        <translation>无认证</translation>
    </message>
    <message>
        <source>80 PLUS</source>
        <translation>80 PLUS 白牌</translation>
    </message>
    <message>
        <source>Bronze</source>
        <translation>铜牌</translation>
    </message>
    <message>
        <source>Silver</source>
        <translation>银牌</translation>
    </message>
    <message>
        <source>Gold</source>
        <translation>金牌</translation>
    </message>
    <message>
        <source>Platinum</source>
        <translation>白金牌</translation>
    </message>
    <message>
        <source>Titanium</source>
        <translation>钛金牌</translation>
    </message>
    <message>
        <source>none: recommend one</source>
        <translation>无：为我推荐</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>用途</translation>
    </message>
    <message>
        <source>PSU standard</source>
        <translation>电源规范</translation>
    </message>
    <message>
        <source>80 PLUS level</source>
        <translation>80 PLUS 等级</translation>
    </message>
    <message>
        <source>Your PSU</source>
        <translation>你的电源</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <source>Electricity</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>1 USD = {rate} {code} (rate of {date}).</source>
        <translation>1 美元 = {rate} {code}（{date} 的汇率）。</translation>
    </message>
    <message>
        <source>Unknown CPU: {name}. Closest: {names}</source>
        <translation>未知的 CPU：{name}。最接近的：{names}</translation>
    </message>
    <message>
        <source>{name}  ({tgp} W)</source>
        <translation>{name}（{tgp} W）</translation>
    </message>
    <message>
        <source>Detected on this PC: {parts}</source>
        <translation>在本机检测到：{parts}</translation>
    </message>
    <message>
        <source>Nothing detected: showing an example build. Replace it with yours.</source>
        <translation>未检测到硬件：下面是一套示例配置，请换成你自己的。</translation>
    </message>
    <message>
        <source>No NVIDIA GPU or known CPU found on this PC.</source>
        <translation>本机未找到 NVIDIA 显卡或已知型号的 CPU。</translation>
    </message>
    <message>
        <source>Your last build. &apos;Use this PC&apos; fills in this computer&apos;s hardware.</source>
        <translation>上次的配置。点击“使用本机硬件”可换成这台电脑的硬件。</translation>
    </message>
    <message>
        <source>Unknown card: {name}. Closest: {names}</source>
        <translation>未知显卡：{name}。最接近的：{names}</translation>
    </message>
</context>
<context>
    <name>RentBox</name>
    <message>
        <source>Buy or rent? Each card against renting that card</source>
        <translation>买还是租？每张卡与租用同款卡比较</translation>
    </message>
    <message>
        <source>/h</source>
        <translation>/小时</translation>
    </message>
    <message>
        <source>Card</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Card price</source>
        <translation>显卡价格</translation>
    </message>
    <message>
        <source>Resale later</source>
        <translation>日后转售</translation>
    </message>
    <message>
        <source>Cloud price</source>
        <translation>云端价格</translation>
    </message>
    <message>
        <source>Card price on file: {note}.</source>
        <translation>记录的显卡价格：{note}。</translation>
    </message>
    <message>
        <source>Cloud price: {note}; edit it to today&apos;s price.</source>
        <translation>云端价格：{note}；请改成当前价格。</translation>
    </message>
    <message>
        <source>Cloud price read {date} from {provider}; edit it to today&apos;s price.</source>
        <translation>云端价格于 {date} 读取自 {provider}；请改成当前价格。</translation>
    </message>
    <message>
        <source>Converted from USD.</source>
        <translation>由美元换算。</translation>
    </message>
    <message>
        <source>No cloud price on file for this card: enter one.</source>
        <translation>这张卡没有云端价格记录：请自行填写。</translation>
    </message>
    <message>
        <source>No dated AutoDL price was found in our sources: enter the price you see there.</source>
        <translation>资料中没有找到注明日期的 AutoDL 价格：请填写你在那里看到的价格。</translation>
    </message>
    <message>
        <source>Add a card to compare buying with renting.</source>
        <translation>添加一张显卡后可比较买与租。</translation>
    </message>
    <message>
        <source>({w} W of the PC&apos;s power: {cost}/h)</source>
        <translation>（分摊整机 {w} W：{cost}/小时）</translation>
    </message>
</context>
<context>
    <name>ResultPanel</name>
    <message>
        <source>Sustained load</source>
        <translation>持续负载</translation>
    </message>
    <message>
        <source>Recommended PSU</source>
        <translation>推荐电源</translation>
    </message>
    <message>
        <source>GPU spikes (10 ms)</source>
        <translation>显卡瞬时峰值（10 毫秒）</translation>
    </message>
    <message>
        <source>From the wall</source>
        <translation>墙插功耗</translation>
    </message>
    <message>
        <source>Where the watts go</source>
        <translation>功耗去向</translation>
    </message>
    <message>
        <source>CPU at PL2/PPT, GPUs at full power</source>
        <translation>CPU 按 PL2/PPT，显卡满功耗</translation>
    </message>
    <message>
        <source>never below {w} W</source>
        <translation>不低于 {w} W</translation>
    </message>
    <message>
        <source>{w} W for 100 µs</source>
        <translation>100 微秒峰值 {w} W</translation>
    </message>
    <message>
        <source>{cur} {day:.2f} per day ({hours} h)</source>
        <translation>每天 {cur} {day:.2f}（{hours} 小时）</translation>
    </message>
    <message>
        <source>From the wall at {load}% load, by 80 PLUS level:</source>
        <translation>负载 {load}% 时各 80 PLUS 等级的墙插功耗：</translation>
    </message>
    <message>
        <source>Cables and PCIe lanes</source>
        <translation>供电线与 PCIe 通道</translation>
    </message>
    <message>
        <source>Your {w} W PSU is enough.</source>
        <translation>你的 {w} W 电源够用。</translation>
    </message>
    <message>
        <source>Your {w} W PSU is enough, but below our recommendation.</source>
        <translation>你的 {w} W 电源够用，但低于推荐值。</translation>
    </message>
    <message>
        <source>Your {w} W PSU is not enough for this build.</source>
        <translation>你的 {w} W 电源不够这套配置使用。</translation>
    </message>
    <message>
        <source>your PSU {w} W</source>
        <translation>你的电源 {w} W</translation>
    </message>
    <message>
        <source>recommended PSU {w} W</source>
        <translation>推荐电源 {w} W</translation>
    </message>
    <message>
        <source>GPU spikes (10 ms) {w} W</source>
        <translation>显卡瞬时峰值（10 毫秒）{w} W</translation>
    </message>
    <message>
        <source>ATX 3.x allows {w} W for 10 ms</source>
        <translation>ATX 3.x 允许 10 ms 内达到 {w} W</translation>
    </message>
    <message>
        <source>ATX 2.x allows {w} W for 10 ms</source>
        <translation>ATX 2.x 允许 10 ms 内达到 {w} W</translation>
    </message>
    <message>
        <source>{n} GPUs</source>
        <translation>{n} 张显卡</translation>
    </message>
    <message>
        <source>Why {w} W</source>
        <translation>为什么是 {w} W</translation>
    </message>
    <message>
        <source>The other rules ask for less:</source>
        <translation>其他规则要求的更低：</translation>
    </message>
</context>
</TS>
